// What the operator console shows of a conversation, as plain functions (demo/site/console-format.test.ts).

/** An escalated chat nobody touched for this long no longer sits in the default list. */
export const STALE_MS = 24 * 60 * 60 * 1000;

/** The list's filters: the default leaves out archived and long-untouched chats. */
export const FILTERS = {
  open: 'Open',
  waiting: 'Waiting',
  all: 'All',
};

/** True when a person owes the customer an answer: handed over, and the customer spoke last (or nobody yet). */
export function isWaiting(c) {
  return c.state === 'escalated' && (!c.lastMessage || c.lastMessage.hbo === 'user');
}

/** The conversations `filter` (a key of FILTERS) keeps, in the given order. */
export function filterConversations(conversations, filter, now = Date.now()) {
  if (filter === 'all') return conversations;
  if (filter === 'waiting') return conversations.filter(isWaiting);
  return conversations.filter((c) => c.state === 'active' || (c.state === 'escalated' && (isWaiting(c) || now - c.updatedAt < STALE_MS)));
}

/**
 * A name that tells rows apart: the visitor's own, else "Visitor" and the last digits of the id
 * (ids share their leading digits, so a name cut short at the end hid the ones that differ).
 */
export function visitorName(c) {
  return c.profileName || `Visitor …${String(c.id).slice(-4)}`;
}

/** "German" for `de-AT` in the operator's language; undefined without a usable tag. */
export function languageName(tag, operatorLocales) {
  if (typeof tag !== 'string' || tag === '') return undefined;
  try {
    return new Intl.DisplayNames(operatorLocales, { type: 'language' }).of(tag.slice(0, 2).toLowerCase()) || tag;
  } catch {
    return undefined;
  }
}

/** The path of the page the visitor chats on ("/products/tent"), from a URL or a path; undefined when none. */
export function pagePath(page) {
  if (typeof page !== 'string' || page === '') return undefined;
  try {
    const url = new URL(page, 'http://page.invalid');
    return url.pathname + url.search;
  } catch {
    return undefined;
  }
}

/** The visitor's rating from the conversation's variables (`csat`, `csat_comment`); undefined when unrated. */
export function ratingOf(variables) {
  const score = Number(variables?.csat);
  if (!Number.isInteger(score) || score < 1 || score > 5) return undefined;
  const comment = typeof variables.csat_comment === 'string' && variables.csat_comment.trim() !== '' ? variables.csat_comment.trim() : undefined;
  return { score, comment };
}

/** "★★★★☆" for 4: the visible stars (screen readers get the words from `ratingLabel`). */
export function stars(score) {
  return '★'.repeat(score) + '☆'.repeat(5 - score);
}

/** "Rated 4 of 5" for reading out. */
export function ratingLabel(score) {
  return `Rated ${score} of 5`;
}

/** Variables worth listing as such: the rating has its own line. */
export function otherVariables(variables) {
  return Object.entries(variables || {}).filter(([k]) => k !== 'csat' && k !== 'csat_comment');
}

/** "18:25" or "6:25 PM": the operator's locale, no seconds. */
export function shortClock(ms, locales) {
  return new Date(ms).toLocaleTimeString(locales, { hour: 'numeric', minute: '2-digit' });
}
