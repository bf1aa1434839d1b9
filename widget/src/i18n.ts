/**
 * The widget's strings: English here, every other language one file in `locales/` (served by the BFF).
 * Every string can be overridden through `options.strings`; `{n}`, `{i}` and `{name}` are placeholders
 * filled in by `fill` (`{n}` of `tooBig` is in megabytes: the unit's name differs by language;
 * `{names}` of `notAdded` and `notAddedType` is a list of file names).
 */
import type { Localized } from '../../shared/types.js';
import type { PartStrings } from './parts-strings.js';

const en = {
  open: 'Open chat',
  close: 'Close chat',
  title: 'Chat',
  greeting: 'Hi! How can we help you today?',
  message: 'Message',
  placeholder: 'Type a message…',
  charsLeft: 'Characters left: {n}',
  tooLong: 'Too long by {n} characters. Shorten it to send.',
  send: 'Send',
  typing: 'Typing…',
  unread: '{n} unread',
  older: 'Load older messages',
  newMessages: 'New messages',
  notSent: 'Your message was not sent.',
  retry: 'Retry',
  dismiss: 'Dismiss',
  queued: 'Waiting for connection…',
  sending: 'Sending…',
  uncertain: 'May have been sent: the connection broke before it was confirmed',
  offline: "You're offline. Messages will be sent when you're back.",
  unreachable: 'Connection lost. Trying to reconnect…',
  human: 'Talk to a person',
  escalated: 'A person from our team will take it from here.',
  ended: 'This conversation has ended.',
  gone: 'This conversation is no longer available.',
  notSentKept: 'Your message was not sent: it is kept for a new conversation.',
  prev: 'Previous',
  next: 'Next',
  slide: '{i} of {n}',
  carousel: 'carousel',
  slideRole: 'slide',
  zoom: 'Enlarge image: {name}',
  you: 'You',
  bot: 'Assistant',
  operator: 'Team member',
  /** The mark on the assistant's messages (WIDGET_AI_LABEL renames it); `aiMarkName` is what screen readers hear. */
  aiMark: 'AI',
  aiMarkName: 'AI assistant',
  log: 'Conversation',
  newTab: '(opens in a new tab)',
  attach: 'Attach files',
  /** Over the panel while files are dragged onto it. */
  dropFiles: 'Drop files to add them',
  conversations: 'Conversations',
  chat: 'Back to chat',
  switched: 'You are signed in: this is your earlier conversation.',
  stop: 'Stop',
  rate: 'Rate this answer',
  up: 'Helpful',
  down: 'Not helpful',
  stopped: 'Stopped',
  partFailed: 'This part of the chat could not load. Try again',
  replyMinutes: 'The team usually replies in a few minutes.',
  replyHour: 'The team usually replies within an hour.',
  replyDay: 'The team usually replies within a day.',
  away: "We're away right now. Back {when}.",
  awayUnknown: "We're away right now.",
  escalatedAway: "Our team is away right now. They'll answer here when they're back.",
  escalatedAwayUntil: "Our team is away until {when}. They'll answer here then.",
  escalateFirst: 'Write your question and a person from our team will answer it.',
  escalateFirstAway: "Write your question. Our team is away right now; they'll answer here when they're back.",
  escalateFirstAwayUntil: 'Write your question. Our team is away until {when} and will answer here then.',
  joined: '{name} joined the conversation',
  teamJoined: 'A team member joined the conversation',
  starters: 'Suggested questions',
  /** The header's menu of secondary actions (its items' words are in parts-strings.ts). */
  more: 'More',
  /** A code block's button, and its words once the code is on the clipboard. */
  copyCode: 'Copy code',
  copied: 'Copied',
  /** The name of a table's region, which scrolls sideways when the table is wider than the bubble. */
  table: 'Table',
  /** Under a very long message shown as plain text, cut: shows the next part of it. */
  showMore: 'Show more',
};

/**
 * The strings answers' Markdown needs (markdown.ts and its chunk, markdown-render.ts, both take it
 * from here): the code block's button, the name of a table's scroll region, and "Show more".
 */
export type MarkdownStrings = Pick<Strings, 'copyCode' | 'copied' | 'table' | 'showMore'>;

/** Every string the widget shows: the chat's (`en`, inside the chat) and its parts' (parts-strings.ts, with the parts). */
export type AllStrings = typeof en & PartStrings;

/**
 * The strings the chat holds: English and a language's table over it; the parts' English strings
 * come with the parts chunk (`partStrings`), so only a language's table or the page may have them here.
 */
export type Strings = typeof en & Partial<PartStrings>;

// Written by the build (vite.config.ts) from the files in locales/: a new language is one file there.
declare const __PARLEY_LOCALES__: readonly string[];

/** Languages besides English, whose strings are served beside widget.js and fetched when needed. */
export const SERVED_LOCALES: readonly string[] = __PARLEY_LOCALES__;
const RTL = /^(ar|he|fa|ur|yi|ps|dv|ku|sd|ug)\b/i;

/** `locale`, else the browser's language, as a BCP 47 tag (`en_US`, a common slip, becomes `en-US`). */
export function localeTag(locale: string | undefined): string {
  return (locale || navigator.language || 'en').replace('_', '-');
}

/** The two-letter language of `locale`, else of the browser. */
export function langOf(locale: string | undefined): string {
  return localeTag(locale).slice(0, 2).toLowerCase();
}

/** English, then a language's `table` over it, then the page's `overrides`. */
export function pickStrings(table?: Partial<AllStrings>, overrides?: Partial<AllStrings>): Strings {
  return { ...en, ...table, ...overrides };
}

/**
 * The strings of `lang` from `{bff}/widget-locales/{lang}.json` (English ships inside widget.js,
 * the others would double its strings for every visitor). Undefined, so English, for other
 * languages or when the file cannot be had.
 */
export async function loadStrings(bff: string, lang: string): Promise<Partial<Strings> | undefined> {
  if (!SERVED_LOCALES.includes(lang)) return undefined;
  try {
    const res = await fetch(`${bff}/widget-locales/${lang}.json`);
    return res.ok ? ((await res.json()) as Partial<Strings>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The operator's text (or starters' list) for `lang`: a plain one for everyone; of a per-language
 * object the entry for `lang`, else for the language the widget's strings are in (English where none
 * ship), else nothing, so the widget's own string in the visitor's language.
 */
export function localized<T extends string | string[]>(text: Localized<T> | undefined, lang: string): T | undefined {
  if (typeof text !== 'object' || Array.isArray(text)) return text as T | undefined;
  const stringsLang = SERVED_LOCALES.includes(lang) ? lang : 'en';
  return text[lang] ?? text[stringsLang];
}

/** Text direction: `dir` when given, else right-to-left for RTL locales. */
export function pickDir(locale: string | undefined, dir?: 'ltr' | 'rtl'): 'ltr' | 'rtl' {
  return dir || (RTL.test(locale || navigator.language || '') ? 'rtl' : 'ltr');
}

/** The direction of `text` by its first strong letter (Hebrew or Arabic script: right to left). */
export function textDir(text: string): 'ltr' | 'rtl' {
  return /^[^A-Za-z\u00C0-\u024F\u0370-\u052F]*[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/.test(text) ? 'rtl' : 'ltr';
}

const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'];

/** `bytes` in the units of `locale`: "5 bytes", "2 kB", "1,5 MB" (1024 to the next unit, as the limits count). */
export function fileSize(bytes: number, locale: string): string {
  let unit = 0;
  for (; bytes >= 1024 && unit < 3; unit++) bytes /= 1024;
  // Long for bytes: the short form is "5 byte" in English.
  return new Intl.NumberFormat(locale, { style: 'unit', unit: SIZE_UNITS[unit], unitDisplay: unit ? 'short' : 'long', maximumFractionDigits: 1 }).format(bytes);
}

/** `n` in the digits of `locale`: Arabic-Indic in Arabic, as its times are. */
export function localNumber(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}

/** Fills `{name}` placeholders. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (m, k: string) => (k in values ? String(values[k]) : m));
}
