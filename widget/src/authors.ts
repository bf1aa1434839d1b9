/**
 * Who wrote each message, as the log shows it (docs/api.md "People"): the name and picture of its
 * author, whether it starts a group of the same author's messages (name and picture are shown once
 * per group), and whether an operator writes for the first time ("Mara joined the conversation").
 * The BFF sends `author` on every message; messages from before it only have `role` and
 * `operatorName`.
 */
import type { Message } from '../../shared/types.js';
import { fill, type Strings } from './i18n.js';
import type { ChatMessage } from './messages.js';

/** A bot's or operator's name and picture. */
export interface Profile {
  name?: string;
  avatarUrl?: string;
}

/** An author as shown: always a name (the widget's own word when the BFF sent none). */
export interface Who {
  kind: Message['role'];
  name: string;
  avatarUrl?: string;
  /** The name came from the BFF or the page, not from the widget's strings. */
  named: boolean;
}

/**
 * The author of `m`. For the bot, `bot` (from `init({bot})` over `/api/config` `bot`) wins over the
 * message's own, so that a page can rename the assistant in every message, old ones included.
 */
export function whoWrote(m: Pick<Message, 'role' | 'author' | 'operatorName'>, t: Strings, bot: Profile = {}): Who {
  if (m.role === 'user') return { kind: 'user', name: t.you, named: false };
  const own = m.author ?? (m.operatorName ? { name: m.operatorName } : {});
  const profile: Profile = m.role === 'bot' ? { ...own, ...defined(bot) } : own;
  const fallback = m.role === 'bot' ? t.bot : t.operator;
  return { kind: m.role, name: profile.name || fallback, named: !!profile.name, ...(profile.avatarUrl && { avatarUrl: profile.avatarUrl }) };
}

/** True when `who` writes after `before` as someone else: a new group starts, with its name shown. */
export const startsGroup = (who: Who, before: Who | undefined) =>
  !before || before.kind !== who.kind || before.name !== who.name || before.avatarUrl !== who.avatarUrl;

/**
 * The ids of the messages that are an operator's first in `list`: a "joined the conversation" line
 * goes before each. Derived from authors, as the service sends no join event. With older history not
 * loaded (`partial`), an operator first met in a history page may have written before it, so only
 * one first met on the stream joins.
 */
export function firstOfOperators(list: readonly ChatMessage[], who: (m: Message) => Who, partial = false): Set<string> {
  const seen = new Set<string>();
  const firsts = new Set<string>();
  for (const m of list) {
    if (m.role !== 'operator') continue;
    const name = who(m).name;
    if (!seen.has(name) && !(partial && m.src === 'h')) firsts.add(m.id);
    seen.add(name);
  }
  return firsts;
}

/** The line before an operator's first message, e.g. "Mara Lindqvist joined the conversation". */
export const joinedLine = (who: Who, t: Strings) => (who.named ? fill(t.joined, { name: who.name }) : t.teamJoined);

/** Up to two letters for a picture-less author: "Mara Lindqvist" → "ML", "Juniper" → "J". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = [words[0], words.length > 1 ? words[words.length - 1] : undefined].map((w) => (w ? Array.from(w)[0] : ''));
  return letters.join('').toLocaleUpperCase();
}

/** How many background colours initials can have (classes `av0`…); the same name always gets the same one. */
export const AVATAR_COLOURS = 6;

export function colourOf(name: string): number {
  let h = 0;
  for (const c of name) h = (h * 31 + c.codePointAt(0)!) >>> 0;
  return h % AVATAR_COLOURS;
}

/** A picture's URL: site-relative ones are on the BFF's origin, where the widget came from. */
export function pictureUrl(url: string, bff: string): string | undefined {
  try {
    const out = new URL(url, bff + '/');
    return out.protocol === 'https:' || out.origin === new URL(bff).origin ? out.href : undefined;
  } catch {
    return undefined;
  }
}

function defined(p: Profile): Profile {
  return { ...(p.name && { name: p.name }), ...(p.avatarUrl && { avatarUrl: p.avatarUrl }) };
}
