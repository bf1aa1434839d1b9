/**
 * The conversation's credentials in `localStorage` (one key per BFF origin, shared by every tab)
 * and their refresh. Tabs refresh one at a time (Web Locks where available) and adopt a token
 * another tab already refreshed, because an old refresh token stops working once used.
 */
import type { SessionUser, TokenResponse } from '../../shared/types.js';
import { call } from './api.js';
import { botDone, EMPTY, type Conversation } from './apply-event.js';
import { keep, kept } from './storage.js';

export interface SessionData {
  sessionId: string;
  token: string;
  refreshToken: string;
  expiresAt: string;
  lastEventId?: string;
  /** Conversation state seen last (`escalated`, `archived`), restored after a reload. */
  state?: string;
  /** The score the ended conversation was rated (CSAT), so a reload does not ask again. */
  rated?: number;
  /** The address left for the team (POST /api/contact), so a reload does not ask again. */
  contact?: string;
  /** A failure with no answer since (a stream `error`'s code, e.g. `budget_exhausted`), shown again after a reload. */
  notice?: string;
  /** The signed-in user the conversation belongs to (docs/api.md "Signed-in users"). */
  user?: SessionUser;
  /** The bot's lines about the handoff (no votes on them), so a reload still knows them from answers. */
  handoff?: string[];
}

/** What of a conversation survives a reload, kept beside its credentials. */
export type Facts = Pick<SessionData, 'lastEventId' | 'state' | 'rated' | 'contact' | 'notice' | 'handoff'>;

/** The facts of `c` to store: derived, never kept by hand (conversation.ts writes them from an effect). */
export function factsOf(c: Conversation): Facts {
  return {
    lastEventId: c.lastEventId,
    state: c.convo === 'none' ? undefined : c.convo,
    rated: c.rating?.score,
    contact: c.contact,
    notice: c.notice,
    handoff: c.handoff,
  };
}

/** The conversation a stored session continues: its one parse. */
export function conversationOf(s: SessionData): Conversation {
  return {
    ...EMPTY,
    convo: botDone(s.state) ? s.state : 'active',
    rating: s.rated ? { score: s.rated } : undefined,
    contact: s.contact,
    notice: s.notice,
    user: s.user,
    handoff: Array.isArray(s.handoff) ? s.handoff : undefined,
    lastEventId: s.lastEventId,
  };
}

/** The storage key of a BFF's session. */
export function sessionKey(bff: string): string {
  return 'parley:' + bff;
}

/** Reads the stored session, if any (storage may be unavailable or hold junk). */
export function loadSession(key: string): SessionData | undefined {
  const s = kept<SessionData>('localStorage', key);
  return s?.sessionId && s.token ? s : undefined;
}

/**
 * Keeps an empty IndexedDB database named `key` while this browser has a conversation. The loader
 * asks `indexedDB.databases()` for it at idle, which answers without blocking the page, instead of
 * reading localStorage (a page's first read of it waits on the browser). Without IndexedDB (some
 * private modes) the loader reads localStorage.
 */
export function markConversation(key: string, has: boolean): void {
  try {
    if (!has) return void indexedDB.deleteDatabase(key);
    const open = indexedDB.open(key);
    open.onsuccess = () => open.result.close();
  } catch {
    // No IndexedDB here: the loader's fallback finds the conversation in localStorage.
  }
}

/** Stores the session, or removes it (which tells other tabs the conversation was reset). */
export function saveSession(key: string, s: SessionData | undefined): void {
  // The mark follows the stored conversation as it comes and goes, whichever tab stores it.
  if ((kept('localStorage', key) !== undefined) !== !!s) markConversation(key, !!s);
  keep('localStorage', key, s);
}

/** Milliseconds until the token should be refreshed: a minute (at most a fifth of its life) early. */
export function refreshDelay(s: SessionData, now = Date.now()): number {
  const left = Date.parse(s.expiresAt) - now;
  return Math.max(0, left - Math.min(60_000, left / 5));
}

/** True when the token is expired or about to be. */
export function isExpired(s: SessionData, now = Date.now()): boolean {
  return !(Date.parse(s.expiresAt) - now > 5_000);
}

type Locks = { request<T>(name: string, fn: () => Promise<T>): Promise<T> };

/** Exchanges the refresh token for a new pair, unless another tab just did; returns the session to use. */
export function refreshSession(bff: string, key: string, current: SessionData): Promise<SessionData> {
  const run = async (): Promise<SessionData> => {
    const stored = loadSession(key);
    const mine = stored?.sessionId === current.sessionId ? { ...current, ...pick(stored) } : current;
    if (mine.token !== current.token && !isExpired(mine)) return mine;
    let r: TokenResponse;
    try {
      r = await call(bff, 'POST /api/token', { body: { refreshToken: mine.refreshToken } });
    } catch (e) {
      // Without Web Locks two tabs can race: the loser's token was just rotated by the winner.
      await new Promise((ok) => setTimeout(ok, 300));
      const again = loadSession(key);
      if (again?.sessionId === mine.sessionId && again.refreshToken !== mine.refreshToken) return { ...mine, ...pick(again) };
      throw e;
    }
    const next = { ...mine, ...pick(r) };
    // Another tab may have reset or replaced the conversation meanwhile: never resurrect it.
    const now = loadSession(key);
    if (now ? now.sessionId === next.sessionId : !stored) saveSession(key, { ...now, ...next });
    return next;
  };
  const locks = (navigator as { locks?: Locks }).locks;
  return locks ? locks.request(key, run) : run();
}

function pick(s: TokenResponse): TokenResponse {
  return { token: s.token, refreshToken: s.refreshToken, expiresAt: s.expiresAt };
}
