/**
 * The conversation's credentials: requests made with its token, a refresh shortly before the
 * token expires and after a `token_expired`, and the end of the conversation when its refresh
 * token is no longer accepted.
 */
import { ApiError, call, type CallArgs, type CallInit } from './api.js';
import type { Answer, RouteKey } from '../../shared/routes.js';
import { isExpired, refreshDelay, refreshSession, saveSession, sessionKey, type Facts, type SessionData } from './session.js';

/** True when the credentials can never work again (secret rotated, refresh token expired, gone). */
export const isFatal = (e: unknown): boolean => e instanceof ApiError && [401, 403, 404, 410].includes(e.status);

/** Creates the credential keeper for `bff`; `onLost` runs when the session cannot be refreshed. */
export function createAuth(bff: string, onLost: () => void, report: (e: unknown) => void) {
  const key = sessionKey(bff);
  let session: SessionData | undefined;
  let refreshing: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const noSession = () => new ApiError(401, 'unauthorized', 'No conversation');

  function schedule() {
    clearTimeout(timer);
    if (session) timer = setTimeout(() => refresh().catch(report), refreshDelay(session));
  }

  /** Gets a new token (or the one another tab just got); one refresh at a time. */
  function refresh(): Promise<void> {
    const s = session;
    if (!s) return Promise.reject(noSession());
    return (refreshing ||= refreshSession(bff, key, s)
      .then((next) => {
        if (session?.sessionId !== next.sessionId) return;
        session = next;
        schedule();
      })
      .catch((e: unknown) => {
        if (isFatal(e)) onLost();
        throw e;
      })
      .finally(() => (refreshing = undefined)));
  }

  /** Runs `call` with the token: refreshes an expiring token first, and once more after `token_expired`. */
  async function withToken<T>(call: (token: string) => Promise<T>): Promise<T> {
    const run = () => {
      if (!session) throw noSession();
      return call(session.token);
    };
    if (session && isExpired(session)) await refresh();
    try {
      return await run();
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 'token_expired') throw e;
      await refresh();
      return run();
    }
  }

  /** A JSON request as the conversation (see `withToken`). */
  const authed = (<K extends RouteKey>(key: K, init?: CallInit<K>) => withToken((token) => call(bff, key, ...([{ ...init, token }] as CallArgs<K>)))) as <K extends RouteKey>(
    key: K,
    ...args: CallArgs<K>
  ) => Promise<Answer<K>>;

  return {
    key,
    get session(): SessionData | undefined {
      return session;
    },
    /** Replaces the session; `store` also writes it (or its removal) where every tab sees it. */
    set(next: SessionData | undefined, store = true) {
      session = next;
      schedule();
      if (store) saveSession(key, next);
    },
    /** Writes the current session (a new user, or kept after a switch). */
    save: () => saveSession(key, session),
    /** Keeps what of the conversation survives a reload with its credentials; written only when something changed. */
    note(facts: Facts) {
      const s = session;
      if (!s || Object.keys(facts).every((k) => JSON.stringify(s[k as keyof Facts]) === JSON.stringify(facts[k as keyof Facts]))) return;
      session = Object.assign(s, facts);
      saveSession(key, session);
    },
    refresh,
    authed,
    withToken,
    stop: () => clearTimeout(timer),
  };
}

export type Auth = ReturnType<typeof createAuth>;
