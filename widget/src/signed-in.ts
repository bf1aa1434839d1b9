/**
 * Signed-in users (docs/api.md "Signed-in users"): the identity token the page gives (a string, or a function asked
 * again once the token it gave has expired), resuming the user's conversation on any device,
 * claiming or switching after a login, the user's conversations and read-only past ones.
 */
import { computed, signal, type ReadonlySignal } from '@preact/signals';
import type { ConversationSummary, SessionResponse, SessionUser, UserTokenResponse } from '../../shared/types.js';
import { ApiError, call, type CallArgs } from './api.js';
import type { Answer, RouteKey } from '../../shared/routes.js';
import type { Auth } from './auth.js';
import type { ConversationSlice } from './conversation.js';
import type { ConversationsView, PastConversation, ViewSignals } from './conversations-view.js';
import { loadParts } from './parts-loader.js';
import type { SessionData } from './session.js';
import { keep } from './storage.js';

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

/** Creates the signed-in slice of one widget's store: what the panel shows of the user's conversations, written only here. */
export function createSignedIn(bff: string, auth: Auth, conversation: ConversationSlice, report: (e: unknown) => void) {
  /** The user known without a conversation of theirs on screen (their user token, or one kept for a new conversation). */
  const userOnly = signal<SessionUser | undefined>(undefined);
  // The Conversations view (its list, a past conversation read-only) comes with the parts chunk,
  // made when first shown; its signals are made here so the panel reads them from the start, and
  // `createConversationsView` alone writes them.
  const shown: ViewSignals = { view: signal<'chat' | 'list' | 'past'>('chat'), conversations: signal<ConversationSummary[] | undefined>(undefined), past: signal<PastConversation | undefined>(undefined) };
  let views: ConversationsView | undefined;
  const withViews = () =>
    loadParts().then((p) => (views ??= p.createConversationsView(shown, { auth, conversation, asUser, adopt, current: () => !fresh, continued: () => void (fresh = false), report })));
  /** A login switched to the user's earlier conversation: the panel says so in one line. */
  const switched = signal(false);
  /** The user came back to a conversation of theirs (this browser's, or one begun on another device): welcomed until they write. */
  const back = signal(false);
  const convo = computed(() => conversation.state.value.convo);
  conversation.onClear(() => {
    userOnly.value = undefined;
    switched.value = back.value = false;
  });
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
      conversation.ownedBy(r.user);
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
  async function resume(token: string): Promise<boolean> {
    const r = await call(bff, 'POST /api/session', { body: { identityToken: token } });
    if ('sessionId' in r) {
      userToken = undefined;
      adopt(r);
      return true;
    }
    userToken = r;
    userOnly.value = r.user;
    return false;
  }

  /** A request about the user's own conversations: as the current conversation, else with the user token (asked again once expired). */
  async function asUser<K extends RouteKey>(key: K, ...args: CallArgs<K>): Promise<Answer<K>> {
    if (auth.session?.user) return auth.authed(key, ...args);
    if (!userToken || Date.parse(userToken.expiresAt) - Date.now() < 10_000) {
      const token = await identityToken();
      if (token) await resume(token);
      if (auth.session?.user) return auth.authed(key, ...args);
    }
    if (!userToken) throw new ApiError(401, 'unauthorized', 'Not signed in');
    return call(bff, key, ...([{ ...args[0], token: userToken.token }] as CallArgs<K>));
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
    if (!auth.session || auth.session.user) return void ((await resume(token)) && (back.value = true));
    const r = await auth.authed('POST /api/identify', { body: { identityToken: token } });
    adopt(r);
    switched.value = r.switched;
  }

  /** Starts a conversation with its first message: a new one of the user, or through `POST /api/session`. */
  async function start(body: { text: string; clientId: string; startKey?: string; locale: string; pageUrl: string; profileName?: string; escalate?: boolean }): Promise<SessionResponse> {
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

  /** Leaves the current conversation on screen behind: the next message starts a new one of the user's. */
  function startOver() {
    const s = auth.session;
    conversation.clear(true);
    // Kept in memory only, to prove the user when the new conversation starts.
    if (s) auth.set(s, false);
    userOnly.value = s?.user ?? userToken?.user;
    fresh = true;
    views?.showChat();
  }

  /** Forgets the user (logout): their token source and everything shown of their conversations. */
  function forget() {
    source = cached = userToken = undefined;
    fresh = false;
    userOnly.value = undefined;
    views?.forget();
    switched.value = back.value = false;
  }

  /** Logout: this tab forgets the user, and tells every other tab to. */
  function logout() {
    forget();
    // Other tabs hear of it by the storage event; storage unavailable, they never had the session either.
    keep('localStorage', logoutKey, Date.now());
    keep('localStorage', logoutKey, undefined);
  }

  return {
    /** The signed-in user (docs/api.md "Signed-in users"), if any: the conversation's, else the one known without it. */
    user: computed(() => conversation.state.value.user ?? userOnly.value),
    view: shown.view as ReadonlySignal<'chat' | 'list' | 'past'>,
    conversations: shown.conversations as ReadonlySignal<ConversationSummary[] | undefined>,
    past: shown.past as ReadonlySignal<PastConversation | undefined>,
    switched: switched as ReadonlySignal<boolean>,
    back: back as ReadonlySignal<boolean>,
    /** A conversation of the user's kept in this browser is shown again (a page load without an identity token to resume by). */
    cameBack: () => void (back.value = true),
    /** A new message: the lines about a switched conversation and a welcome have done their job. */
    sent: () => void (switched.value = back.value = false),
    destroy: () => views?.destroy(),
    identify: (next?: IdentitySource) => identify(next).catch(report),
    logout,
    /** The tab shows again: a list on screen is read again. */
    onVisible: () => views?.onVisible(),
    /** Another tab logged out. */
    onStorage: (e: StorageEvent) => e.key === logoutKey && e.newValue && forget(),
    start,
    startOver,
    /** The store's actions of the Conversations view. */
    actions: {
      listConversations: () => withViews().then((v) => v.list(), report),
      openConversation: (c: ConversationSummary) => withViews().then((v) => v.open(c), report),
      newConversation: startOver,
      showChat: () => views?.showChat(),
    },
    get fresh() {
      return fresh;
    },
  };
}

export type SignedIn = ReturnType<typeof createSignedIn>;
