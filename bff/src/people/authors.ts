/**
 * Who wrote a message, as the visitor sees it: the bot's configured name and picture, an operator's
 * display name and picture from OPERATOR_PROFILES (keyed by the service's `username` or email), else
 * the username itself. The widget shows initials when there is no picture.
 */
import type { Author, Role } from '../../../shared/types.js';
import { isRecord } from '../../../shared/records.js';

export interface Profile {
  name?: string;
  avatarUrl?: string;
}

export interface AuthorBook {
  bot: Profile;
  operators: Readonly<Record<string, Profile>>;
}

/** The author of a message of `role`, written by `username` when the service named one. */
export function authorOf(role: Role, username: string | undefined, book: AuthorBook | undefined): Author {
  if (role === 'user') return { kind: 'user' };
  if (role === 'bot') return book ? botOf(book) : ANY_BOT;
  const key = username?.toLowerCase();
  const profile = key !== undefined && book && Object.hasOwn(book.operators, key) ? book.operators[key] : undefined;
  const name = profile?.name ?? username;
  return { kind: 'operator', ...(name !== undefined && { name }), ...(profile?.avatarUrl !== undefined && { avatarUrl: profile.avatarUrl }) };
}

/**
 * OPERATOR_PROFILES' JSON: `{"ada": {"name": "Ada", "avatarUrl": "/assets/ada.svg"}}`. Keys are
 * matched without case (usernames and emails). Throws an Error saying what is wrong.
 */
export function parseProfiles(json: string): Record<string, Profile> {
  const parsed: unknown = JSON.parse(json);
  if (!isRecord(parsed)) throw new Error('must be a JSON object of username or email to {name, avatarUrl}');
  const out: Record<string, Profile> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (!isRecord(value)) throw new Error(`entry "${key}" must be an object {name, avatarUrl}`);
    const profile: Profile = {};
    if (typeof value.name === 'string' && value.name.trim()) profile.name = value.name.trim().slice(0, 100);
    if (typeof value.avatarUrl === 'string' && safeUrl(value.avatarUrl)) profile.avatarUrl = value.avatarUrl;
    else if (value.avatarUrl !== undefined) throw new Error(`entry "${key}" has an avatarUrl that is not an https or site-relative URL`);
    out[key.toLowerCase()] = profile;
  }
  return out;
}

const ANY_BOT: Author = Object.freeze({ kind: 'bot' });
const bots = new WeakMap<AuthorBook, Author>();

/**
 * The bot's author, one frozen object per book shared by every bot message: the webhook path
 * made a new one (with an object spread) for each message it stored.
 */
function botOf(book: AuthorBook): Author {
  let bot = bots.get(book);
  if (!bot) {
    bot = Object.freeze({ kind: 'bot', ...book.bot });
    bots.set(book, bot);
  }
  return bot;
}

/** Pictures load in the visitor's browser: https, or a path on the widget's own origin. */
export function safeUrl(url: string): boolean {
  return /^https:\/\/[^\s]+$/.test(url) || /^\/[^/\s][^\s]*$/.test(url);
}

interface AuthorSettings {
  operatorProfiles: Readonly<Record<string, Profile>>;
  widgetBotName?: string | undefined;
  widgetBotAvatar?: string | undefined;
}

const books = new WeakMap<AuthorSettings, AuthorBook>();

/** The book for a configuration, made once (the webhook path asks for it on every message). */
export function authorBookOf(config: AuthorSettings): AuthorBook {
  let book = books.get(config);
  if (!book) {
    const bot: Profile = {};
    if (config.widgetBotName !== undefined) bot.name = config.widgetBotName;
    if (config.widgetBotAvatar !== undefined) bot.avatarUrl = config.widgetBotAvatar;
    book = { bot, operators: config.operatorProfiles };
    books.set(config, book);
  }
  return book;
}
