/**
 * The widget's store: its state (state.ts), handed out read-only, and the actions, the only
 * writers. Sending goes through the outbox (outbox.ts), stream events through `applyEvent`
 * (conversation.ts); the connection (sync.ts) only connects. `destroy()` releases the stream,
 * timers and window listeners.
 */
import { effect, type ReadonlySignal } from '@preact/signals';
import type { PublicConfig } from '../../shared/types.js';
import { ApiError, call } from './api.js';
import { createAuth } from './auth.js';
import { beep, titleCount } from './alerts.js';
import { createConversation } from './conversation.js';
import { sendRating } from './csat.js';
import { createEngage } from './engage.js';
import { serverCount } from './messages.js';
import { localeTag } from './i18n.js';
import { createOutbox } from './outbox.js';
import { createPrechat } from './prechat.js';
import { createPrefs } from './prefs.js';
import { loadSession, markConversation } from './session.js';
import { createSignedIn, sessionOf, type IdentitySource } from './signed-in.js';
import { createState, type Outgoing, type State } from './state.js';
import { createSync, type Emit } from './sync.js';

export type { Convo } from './state.js';
export type { Emit };

/** The state as components see it: every signal read-only. */
export type ReadonlyState = { readonly [K in keyof State]: State[K] extends ReadonlySignal<infer T> ? ReadonlySignal<T> : State[K] };

/** Creates the store of one widget instance talking to `bff`. */
export function createStore(bff: string, emit: Emit, profileName?: string, identity?: IdentitySource, sound?: boolean, locale?: string) {
  const st = createState();
  const report = (e: unknown) => {
    const err = e instanceof ApiError ? e : new ApiError(0, 'internal_error', String(e));
    emit('error', { code: err.code, message: err.message });
  };
  const auth = createAuth(bff, () => conversation.lost(), report);
  const sync = createSync(
    bff,
    auth,
    (event, id) => conversation.apply(event, id),
    (up) => {
      // The stream is up: what could not be had while the BFF was out of reach comes now.
      if (up) {
        conversation.catchUp();
        if (configAt < 0) void loadConfig();
      }
      // Back after a while out of reach: what waits in the queue goes now, not at its next backoff
      // (once per outage, not on every stream that opens).
      if (up && !st.reachable.value) outbox.resume();
      st.reachable.value = up;
    },
  );
  // The visitor's sound switch (remembered) over the page's `sound` option.
  const prefs = createPrefs(sound);
  const conversation = createConversation(st, auth, sync, emit, report, () => prefs.sound.value && beep());
  const untitle = titleCount(st.unread);
  const signedIn = createSignedIn(bff, st, auth, conversation, report);
  const openKey = auth.key + ':o';
  const draftKey = auth.key + ':d';
  let unkeepDraft = () => {};

  let pendingVars: Record<string, unknown> | undefined;
  /** The page the visitor is on, from `update({page})`: set as user variables with the next message. */
  let page: Record<string, string> | undefined;
  let name = profileName;

  // Per tab (sessionStorage): the queue and the open panel belong to this tab, not to the site.
  const remember = (key: string, value: string) => {
    try {
      sessionStorage.setItem(key, value);
    } catch {
      // storage unavailable: the queue still lives in memory
    }
  };

  const engage = createEngage(st, auth, report, remember, conversation.history);
  const prechat = createPrechat(st, auth, remember, report, localeTag(locale));

  /** Starts a conversation with the item's text; variables set before it existed follow. */
  async function start(item: Outgoing) {
    // Where the BFF verifies identities, names come from identity tokens only (it refuses a page's).
    const profile = name || prechat.name();
    const named = profile && (st.config.value?.identity || 'off') === 'off';
    // The proactive message the visitor answers goes along as context (docs/api.md "Engagement").
    const context = st.proactive.value;
    // "Talk to a person" before the first message: the conversation goes to a person as it starts,
    // so the agent is not asked to answer it first.
    const escalate = st.escalating.value;
    // The visitor's language goes along, so the agent can answer in it (LOCALE_VARIABLE).
    const body = { text: item.text, clientId: item.clientId, startKey: item.key, locale: localeTag(locale), ...(named ? { profileName: profile } : {}), ...(context ? { context } : {}), ...(escalate && { escalate }) };
    const r = await signedIn.start(body);
    auth.set(sessionOf(r));
    emit('conversation', { sessionId: r.sessionId, state: 'started' });
    st.user.value = r.user;
    st.convo.value = 'active';
    sync.live();
    // Not taken with the start (an older BFF, a refusal): asked for on its own, which says why if it fails.
    if (escalate && r.state !== 'escalated') void askForPerson();
    prechat.started();
    if (pendingVars) {
      const variables = pendingVars;
      pendingVars = undefined;
      auth.authed('PATCH /api/user', { body: variables }).catch(report);
    }
  }

  const outbox = createOutbox(auth.key + ':q', { bff, st, auth, conversation, start, startsNew: () => signedIn.fresh, restart, report, remember });

  /** Sends the composer's text, with the chosen files if any (also the retry after a failed send). */
  function submit() {
    // Longer than the BFF takes: the composer says by how much, and nothing is cut or lost.
    if (st.charsLeft.value < 0) return;
    carryPage();
    if (!outbox.sendFiles() && outbox.send(st.draft.value)) st.draft.value = '';
  }

  /** `update()` from a single-page app: the page now on screen, and variables as with `identify`. */
  function update(u: { page?: { url?: unknown; title?: unknown }; variables?: Record<string, unknown> }) {
    if (u.page && typeof u.page.url === 'string') page = { pageUrl: u.page.url, ...(typeof u.page.title === 'string' && { pageTitle: u.page.title }) };
    if (u.variables) identify({ variables: u.variables });
  }

  /** The next message carries the page: its variables are set as it goes (after the start, for a first message). */
  function carryPage() {
    if (page) identify({ variables: page });
    page = undefined;
  }

  /** Starts over: the next message opens a new conversation (other tabs follow). */
  function clearAll() {
    outbox.clear();
    conversation.clear(true);
    auth.set(undefined);
  }

  /** A new conversation after one ended: of the same user when signed in. */
  function restart() {
    if (st.user.value) signedIn.startOver();
    else clearAll();
  }

  /** `Parley('reset')`, e.g. on logout: this browser forgets the conversation, its tokens and the user, in every tab. */
  function reset() {
    clearAll();
    st.chosen.value = [];
    prechat.forget();
    signedIn.logout();
  }

  function setOpen(on: boolean) {
    if (st.open.value === on) return;
    st.open.value = on;
    if (on) {
      st.bubble.value = false;
      if (!document.hidden) conversation.markRead();
      if (configAt > 0 && Date.now() - configAt > 3e5) void loadConfig(true);
    }
    remember(openKey, on ? '1' : '');
    emit(on ? 'open' : 'close');
  }

  /** Asks for a person; with no conversation yet, the first message starts one and asks then (`start`). */
  async function escalate() {
    if (!st.canEscalate.value) return;
    st.escalating.value = true;
    if (st.convo.value !== 'none') await askForPerson();
  }

  async function askForPerson() {
    try {
      await auth.authed('POST /api/escalate');
    } catch (e) {
      st.escalating.value = false;
      report(e);
    }
  }

  async function loadOlder() {
    if (st.loadingOlder.value || !auth.session) return;
    st.loadingOlder.value = true;
    try {
      await conversation.history(serverCount(st.messages.value));
    } catch (e) {
      report(e);
    } finally {
      st.loadingOlder.value = false;
    }
  }

  /** Signs the user in (`identityToken`), or sets the profile name for the next conversation and user variables (sent once one exists). */
  function identify(p: { profileName?: string; variables?: Record<string, unknown>; identityToken?: IdentitySource }) {
    if (p.identityToken) void signedIn.identify(p.identityToken);
    if (p.profileName) name = p.profileName;
    if (!p.variables) return;
    if (auth.session) auth.authed('PATCH /api/user', { body: p.variables }).catch(report);
    else pendingVars = { ...pendingVars, ...p.variables };
  }

  const onOnline = () => {
    st.online.value = true;
    outbox.resume();
    sync.restart();
  };
  const onOffline = () => (st.online.value = false);
  // Once the tab shows again: answers that came while it was hidden are read if the chat is open, and a list of conversations on screen is read again.
  const onVisible = () => {
    if (document.hidden) return;
    if (st.open.value || st.inline.value) conversation.markRead();
    signedIn.onVisible();
  };

  const onStorage = (e: StorageEvent) => {
    signedIn.onStorage(e);
    conversation.onStorage(e);
  };

  /** Restores the conversation and queue of a previous page load, signs in, then fetches the public settings. */
  async function boot() {
    addEventListener('storage', onStorage);
    addEventListener('online', onOnline);
    addEventListener('offline', onOffline);
    document.addEventListener('visibilitychange', onVisible);
    const s = loadSession(auth.key);
    markConversation(auth.key, !!s); // also for a conversation begun before the loader looked for the mark
    if (s) conversation.resume(s);
    prechat.restore();
    let saved: Outgoing[] = [];
    try {
      saved = JSON.parse(sessionStorage.getItem(auth.key + ':q') || '[]') as Outgoing[];
      if (sessionStorage.getItem(openKey)) setOpen(true);
      // A half-typed message survives a reload, in this tab, as the queue does.
      st.draft.value ||= sessionStorage.getItem(draftKey) || '';
    } catch {
      // unreadable: nothing was waiting
    }
    unkeepDraft = effect(() => remember(draftKey, st.draft.value));
    if (identity) await signedIn.identify(identity);
    outbox.restore(saved);
    await loadConfig();
  }

  /** When the settings came; -1: asking failed, so the stream's next opening asks again. */
  let configAt = 0;
  let hoursTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The BFF's public settings, and whether a person can answer now: asked again at the team's
   * opening time (past the browser's cached copy), and when the panel opens on a copy over five
   * minutes old (the team may have closed).
   */
  async function loadConfig(fresh?: boolean) {
    try {
      const config = await call(bff, 'GET /api/config', fresh ? { cache: 'no-cache' } : {});
      st.config.value = config;
      configAt = Date.now();
      const opens = config.handoff?.open === false && Date.parse(config.handoff.opensAt!);
      clearTimeout(hoursTimer);
      // A time already past here (this clock ahead of the BFF's) is asked again in a minute, not at once.
      const wait = opens ? opens - configAt : 0;
      if (opens) hoursTimer = setTimeout(() => loadConfig(true), wait > 0 ? Math.min(wait + 1_000, 864e5) : 6e4);
    } catch (e) {
      configAt ||= -1;
      report(e);
    }
  }

  function destroy() {
    unkeepDraft();
    clearTimeout(hoursTimer);
    outbox.destroy();
    sync.destroy();
    conversation.destroy();
    removeEventListener('storage', onStorage);
    removeEventListener('online', onOnline);
    removeEventListener('offline', onOffline);
    document.removeEventListener('visibilitychange', onVisible);
    st.unread.value = 0; // gives the page its title back
    untitle();
  }

  const actions = {
    setOpen,
    /** The composer's text as typed. */
    setDraft: (text: string) => void (st.draft.value = text),
    /** Rendered inline (`<parley-chat>`) or floating. */
    setInline: (inline: boolean) => void (st.inline.value = inline),
    send: (text: string) => (carryPage(), outbox.send(text)),
    update,
    submit,
    /** Adds files as chips for the next message (those over the limits are refused). */
    attach: outbox.attach,
    /** Takes a chosen file away. */
    removeFile: outbox.removeFile,
    retryUpload: outbox.retryUpload,
    /** Hides the message about the last files (the × beside it). */
    dismissUpload: () => void (st.upload.value = undefined),
    escalate,
    loadOlder,
    identify,
    reset,
    restart,
    boot,
    destroy,
    /** Rates the ended conversation (CSAT); see `sendRating`. */
    rate: (score: number, comment?: string) => sendRating(auth, conversation.rated, score, comment),
    /** Leaves an address for the team (POST /api/contact); every tab learns it from the stream. */
    leaveContact: async (email: string, consent?: boolean) => {
      // `locale`: which language's consent text the visitor read.
      await auth.authed('POST /api/contact', { body: { email, ...(consent !== undefined && { consent, locale: localeTag(locale) }) } });
      conversation.contacted(email);
    },
    /** The pre-chat form's answers (`{}`: skipped); they go along once the first message starts a conversation. */
    givePrechat: prechat.give,
    ...engage,
  };
  const state: ReadonlyState = st;
  // `bff`: site-relative pictures (operators, the bot) are on its origin.
  return { ...state, ...actions, ...signedIn.actions, bff, prefs };
}

/** One widget instance's store. */
export type Store = ReturnType<typeof createStore>;
