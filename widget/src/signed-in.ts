/**
 * Signed-in users (docs/api.md "Signed-in users"): the identity token the page gives (a string, or a function asked
 * again once the token it gave has expired), resuming the user's conversation on any device,
 * claiming or switching after a login, the user's conversations and read-only past ones.
 */
import type { ConversationSummary, ConversationsList, IdentifyResponse, MessagesPage, SessionResponse, UserTokenResponse } from '../../shared/types.js';
import { ApiError, call, type CallArgs } from './api.js';
import type { Answer, RouteKey } from '../../shared/routes.js';
import type { Auth } from './auth.js';
import { mergeMessages } from './messages.js';
import type { SessionData } from './session.js';
import type { State } from './state.js';
import type { ConversationActions } from './conversation.js';

/** What the page passes as `identityToken`. */
export type IdentitySource = string | (() => string | Promise<string>);

/** The claims of a JWT, read without checking it (the BFF checks): only to compare users and expiry. */
function claimsOf(jwt: string): { sub?: string; exp?: number } {
  try {
    return JSON.parse(atob(jwt.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    return {};
  }
}

/** A session as stored from an answer that started, resumed or switched to a conversation. */
export const sessionOf = (r: SessionResponse): SessionData => ({ sessionId: r.sessionId, token: r.token, refreshToken: r.refreshToken, expiresAt: r.expiresAt, user: r.user });

/** Creates the signed-in part of one widget's store. */
export function createSignedIn(bff: string, st: State, auth: Auth, conversation: ConversationActions, report: (e: unknown) => void) {
  let source: IdentitySource | undefined;
  let cached: string | undefined;
  /** "New conversation" was chosen: the next message starts one (the current token still proves the user). */
  let fresh = false;
  /** The user token of a signed-in user with no open conversation (docs/api.md "Signed-in users"). */
  let userToken: UserTokenResponse | undefined;
  // Written on logout, so that every tab forgets the user, not only their conversation.
  const logoutKey = auth.key + ':logout';

  /** The identity token: the cached one while it lives, else the page's (its function is asked again). */
  async function identityToken(): Promise<string | undefined> {
    if (!source) return undefined;
    if (cached && (claimsOf(cached).exp ?? 0) * 1000 > Date.now() + 10_000) return cached;
    cached = typeof source === 'string' ? source : await source();
    return cached;
  }

  /** Shows the conversation of `r` (the current one kept in place when it is the same). */
  function adopt(r: SessionResponse) {
    const now = auth.session;
    if (now?.sessionId === r.sessionId) {
      auth.set({ ...now, ...sessionOf(r) });
      st.user.value = r.user;
      return;
    }
    conversation.clear(true);
    conversation.resume(sessionOf(r));
    auth.save();
  }

  /**
   * The user's active conversation from any device, if there is one; else a user token, with which the
   * Conversations view reaches their history until the first message starts a conversation.
   */
  async function resume(token: string) {
    const r = await call(bff, 'POST /api/session', { body: { identityToken: token } });
    if ('sessionId' in r) {
      userToken = undefined;
      return adopt(r);
    }
    userToken = r;
    st.user.value = r.user;
  }

  /** A request about the user's own conversations: as the current conversation, else with the user token (asked again once expired). */
  async function asUser<K extends RouteKey>(key: K, ...[init]: CallArgs<K>): Promise<Answer<K>> {
    const args = [init] as CallArgs<K>;
    if (auth.session?.user) return auth.authed(key, ...args);
    if (!userToken || Date.parse(userToken.expiresAt) - Date.now() < 10_000) {
      const token = await identityToken();
      if (token) await resume(token);
      if (auth.session?.user) return auth.authed(key, ...args);
    }
    if (!userToken) throw new ApiError(401, 'unauthorized', 'Not signed in');
    return call(bff, key, ...([{ ...init, token: userToken.token }] as CallArgs<K>));
  }

  /** Signs in with `next` (or the page's source at boot): claims this browser's anonymous conversation or switches to the user's. */
  async function identify(next?: IdentitySource) {
    if (next !== undefined) {
      source = next;
      cached = undefined;
    }
    const token = await identityToken();
    if (!token) return;
    const s = auth.session;
    // Someone else signed in on this browser without a logout: their conversation is not shown.
    if (s?.user && s.user.id !== claimsOf(token).sub) {
      conversation.clear(true);
      auth.set(undefined);
    }
    if (!auth.session || auth.session.user) return resume(token);
    const r = await auth.authed('POST /api/identify', { body: { identityToken: token } });
    adopt(r);
    st.switched.value = r.switched;
  }

  /** Starts a conversation with its first message: a new one of the user, or through `POST /api/session`. */
  async function start(body: { text: string; clientId: string; startKey?: string; locale: string; profileName?: string; escalate?: boolean }): Promise<SessionResponse> {
    const token = await identityToken();
    // Names come from the identity token, and the proactive message goes along only without one.
    const signed = token ? { ...body, profileName: undefined, context: undefined, identityToken: token } : body;
    const r =
      fresh && auth.session?.user
        ? await auth.authed('POST /api/conversations', { body: signed })
        : ((await call(bff, 'POST /api/session', { body: signed })) as SessionResponse);
    fresh = false;
    return r;
  }

  /** Shows the user's conversations. */
  function list() {
    st.view.value = 'list';
    return refresh();
  }

  /** Reads the list again: when it is shown, and when its tab shows again (another device or an operator may have changed it). */
  async function refresh() {
    try {
      st.conversations.value = (await asUser('GET /api/conversations')).items;
    } catch (e) {
      report(e);
    }
  }

  /** Makes an open conversation the current one; false when it ended meanwhile (it is then shown read-only). */
  async function continueIn(sessionId: string): Promise<boolean> {
    try {
      const r = await asUser('POST /api/conversations/:sessionId/current', { params: { sessionId } });
      fresh = false;
      adopt(r);
      st.view.value = 'chat';
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.code === 'conversation_archived') return false;
      throw e;
    }
  }

  /**
   * Opens a conversation of the list: the current one in the chat; another open one becomes the current one
   * (`POST /api/conversations/{id}/current`, saved so every tab follows); an ended one read-only with its history.
   */
  async function open(c: ConversationSummary) {
    if (c.sessionId === auth.session?.sessionId && !fresh) return (st.view.value = 'chat');
    try {
      if (c.state !== 'archived' && (await continueIn(c.sessionId))) return;
      const page = await asUser('GET /api/messages', { query: { limit: 50, sessionId: c.sessionId } });
      st.past.value = { summary: c, messages: mergeMessages([], page.items, 'h') };
      st.view.value = 'past';
    } catch (e) {
      report(e);
    }
  }

  /** Leaves the current conversation on screen behind: the next message starts a new one of the user's. */
  function startOver() {
    const s = auth.session;
    conversation.clear(true);
    // Kept in memory only, to prove the user when the new conversation starts.
    if (s) auth.set(s, false);
    st.user.value = s?.user ?? userToken?.user;
    fresh = true;
    st.view.value = 'chat';
  }

  /** Forgets the user (logout): their token source and everything shown of their conversations. */
  function forget() {
    source = cached = userToken = undefined;
    fresh = false;
    st.view.value = 'chat';
    st.conversations.value = st.past.value = undefined;
    st.switched.value = false;
  }

  /** Logout: this tab forgets the user, and tells every other tab to. */
  function logout() {
    forget();
    try {
      localStorage.setItem(logoutKey, String(Date.now()));
      localStorage.removeItem(logoutKey);
    } catch {
      // storage unavailable: other tabs never had the session either
    }
  }

  return {
    identify: (next?: IdentitySource) => identify(next).catch(report),
    logout,
    /** The tab shows again: a list on screen is read again. */
    onVisible: () => void (st.view.value === 'list' && refresh()),
    /** Another tab logged out. */
    onStorage: (e: StorageEvent) => e.key === logoutKey && e.newValue && forget(),
    start,
    startOver,
    /** The store's actions of the Conversations view. */
    actions: { listConversations: list, openConversation: open, newConversation: startOver, showChat: () => (st.view.value = 'chat') },
    get fresh() {
      return fresh;
    },
  };
}

export type SignedIn = ReturnType<typeof createSignedIn>;
