/**
 * The widget's store: it composes the slices, each written only by the module that owns it (the
 * conversation, the outbox with its uploads, the signed-in user, engagement, the pre-chat form),
 * into `{state, actions}`: `state` is read-only signals, `actions` the only way to change them.
 * The store itself owns what is about the page (open, inline, online, reachable, the settings).
 * `destroy()` releases the stream, timers, effects and window listeners.
 */
import { computed, effect, signal, type ReadonlySignal } from '@preact/signals';
import type { PublicConfig } from '../../shared/types.js';
import { ApiError, call } from './api.js';
import type { Conversation } from './apply-event.js';
import { createAuth } from './auth.js';
import { beep, titleCount } from './alerts.js';
import { createConversation } from './conversation.js';
import { createEngage } from './engage.js';
import { localeTag } from './i18n.js';
import { createOutbox } from './outbox.js';
import { loadParts } from './parts-loader.js';
import { createPrechat } from './prechat.js';
import { createPrefs } from './prefs.js';
import { loadSession, markConversation } from './session.js';
import { createSignedIn, sessionOf, type IdentitySource } from './signed-in.js';
import type { Outgoing } from './state.js';
import { keep, kept } from './storage.js';
import type { SessionResponse } from '../../shared/types.js';
import { createSync, type Emit } from './sync.js';

export type { Convo } from './state.js';
export type { Emit };

/** Creates the store of one widget instance talking to `bff`. */
export function createStore(bff: string, emit: Emit, profileName?: string, identity?: IdentitySource, sound?: boolean, locale?: string) {
  const open = signal(false);
  /** Rendered inline (`<parley-chat>`): always on screen, so nothing is unread. */
  const inline = signal(false);
  const online = signal(navigator.onLine !== false);
  /** The BFF answers: false while the conversation's stream has been down for a while (sync.ts). */
  const reachable = signal(true);
  const config = signal<PublicConfig | undefined>(undefined);
  /** False once destroyed: the page's title is given back. */
  const alive = signal(true);

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
      if (up && !reachable.value) outbox.resume();
      reachable.value = up;
    },
  );
  // The visitor's sound switch (remembered) over the page's `sound` option.
  const prefs = createPrefs(sound);
  const conversation = createConversation(auth, sync, emit, report, { shown: () => open.value || inline.value }, () => prefs.sound.value && beep());
  const conv = conversation.state;
  const untitle = titleCount(computed(() => (alive.value ? conversation.unreadCount.value : 0)));
  const signedIn = createSignedIn(bff, auth, conversation, report);
  // Per tab (sessionStorage): the open panel and the half-typed message belong to this tab, not to the site.
  const openKey = auth.key + ':o';
  const draftKey = auth.key + ':d';
  let unkeep = () => {};

  let pendingVars: Record<string, unknown> | undefined;
  /** The page the visitor is on, from `update({page})`: set as user variables with the next message. */
  let page: Record<string, string> | undefined;
  let name = profileName;

  const engage = createEngage(auth, conversation, open, report);
  const prechat = createPrechat(auth, report, localeTag(locale), conversation.contacted);

  /** Starts a conversation with the item's text; variables set before it existed follow. */
  async function start(item: Outgoing) {
    // Where the BFF verifies identities, names come from identity tokens only (it refuses a page's).
    const profile = name || prechat.name();
    const named = profile && (config.value?.identity || 'off') === 'off';
    // The proactive message the visitor answers goes along as context (docs/api.md "Engagement").
    const context = engage.answer();
    // "Talk to a person" before the first message: the conversation goes to a person as it starts,
    // so the agent is not asked to answer it first.
    const escalate = conv.value.escalating;
    // The visitor's language goes along, so the agent can answer in it (LOCALE_VARIABLE).
    // The page goes along too: an email's continue link brings the visitor back to it.
    const body = { text: item.text, clientId: item.clientId, startKey: item.key, locale: localeTag(locale), pageUrl: pageUrl(), ...(named ? { profileName: profile } : {}), ...(context ? { context } : {}), ...(escalate && { escalate }) };
    const r = await signedIn.start(body);
    auth.set(sessionOf(r));
    emit('conversation', { sessionId: r.sessionId, state: 'started' });
    conversation.started(r.user);
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

  const outbox = createOutbox(auth.key + ':q', { bff, auth, conversation, online, config, start, startsNew: () => signedIn.fresh, restart, report });
  outbox.onSend(signedIn.sent);

  /**
   * Characters the composer's text may still grow by, counted as the BFF counts (trimmed, UTF-16
   * units) against its `limits.textMaxLength` (4000, its default, until the settings arrive);
   * below 0, too long to send.
   */
  const charsLeft = computed(() => (config.value?.limits?.textMaxLength || 4000) - outbox.draft.value.trim().length);

  /** Sends the composer's text, with the chosen files if any (also the retry after a failed send). */
  function submit() {
    // Longer than the BFF takes: the composer says by how much, and nothing is cut or lost.
    if (charsLeft.value < 0) return;
    carryPage();
    if (!outbox.sendFiles() && outbox.send(outbox.draft.value)) outbox.setDraft('');
  }

  /** `update()` from a single-page app: the page now on screen, and variables as with `identify`. */
  function update(u: { page?: { url?: unknown; title?: unknown }; variables?: Record<string, unknown> }) {
    if (u.page && typeof u.page.url === 'string') page = { pageUrl: u.page.url, ...(typeof u.page.title === 'string' && { pageTitle: u.page.title }) };
    if (u.variables) identify({ variables: u.variables });
  }

  /**
   * The next message carries the page: its variables are set as it goes (after the start, for a first
   * message). Not where the BFF verifies identities: there no variable is the browser's to set.
   */
  function carryPage() {
    if (page && (config.value?.identity || 'off') === 'off') identify({ variables: page });
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
    if (signedIn.user.value) signedIn.startOver();
    else clearAll();
  }

  /** `Parley('reset')`, e.g. on logout: this browser forgets the conversation, its tokens and the user, in every tab. */
  function reset() {
    clearAll();
    outbox.dropFiles();
    prechat.forget();
    engage.forget();
    signedIn.logout();
  }

  function setOpen(on: boolean) {
    if (open.value === on) return;
    open.value = on;
    if (on) {
      if (!document.hidden) conversation.markRead();
      if (configAt > 0 && Date.now() - configAt > 3e5) void loadConfig(true);
    }
    keep('sessionStorage', openKey, on || undefined);
    emit(on ? 'open' : 'close');
  }

  /** Asks for a person; with no conversation yet, the first message starts one and asks then (`start`). */
  async function escalate() {
    if (!canEscalate.value) return;
    conversation.asking(true);
    if (conv.value.convo !== 'none') await askForPerson();
  }

  async function askForPerson() {
    try {
      await auth.authed('POST /api/escalate');
    } catch (e) {
      conversation.asking(false);
      report(e);
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
    online.value = true;
    outbox.resume();
    sync.restart();
  };
  const onOffline = () => (online.value = false);
  // Once the tab shows again: answers that came while it was hidden are read if the chat is open, and a list of conversations on screen is read again.
  const onVisible = () => {
    if (document.hidden) return;
    if (open.value || inline.value) conversation.markRead();
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
    let s = loadSession(auth.key);
    // An email's continue link (docs/api.md "Continuity by email"): its token leaves the address bar
    // at once, and its conversation replaces the one this browser held, in every tab.
    const link = /^#parley-resume=(.+)/.exec(location.hash)?.[1];
    if (link) {
      history.replaceState(history.state, '', pageUrl());
      try {
        auth.set((s = sessionOf(await call(bff, 'POST /api/resume', { body: { token: link } }))));
      } catch (e) {
        report(e); // spent, expired or a signed-in user's: the conversation stored here stays
      }
    }
    markConversation(auth.key, !!s); // also for a conversation begun before the loader looked for the mark
    if (s) conversation.resume(s);
    if (s?.user) signedIn.cameBack();
    if (link) setOpen(true);
    if (kept('sessionStorage', openKey)) setOpen(true);
    // A half-typed message survives a reload, in this tab, as the queue does.
    if (!outbox.draft.value) outbox.setDraft(kept<string>('sessionStorage', draftKey) || '');
    unkeep = effect(() => keep('sessionStorage', draftKey, outbox.draft.value || undefined));
    if (identity) await signedIn.identify(identity);
    outbox.restore();
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
      const got = await call(bff, 'GET /api/config', fresh ? { cache: 'no-cache' } : {});
      config.value = got;
      configAt = Date.now();
      const opens = got.handoff?.open === false && Date.parse(got.handoff.opensAt!);
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
    unkeep();
    clearTimeout(hoursTimer);
    outbox.destroy();
    sync.destroy();
    conversation.destroy();
    signedIn.destroy();
    engage.destroy();
    prechat.destroy();
    removeEventListener('storage', onStorage);
    removeEventListener('online', onOnline);
    removeEventListener('offline', onOffline);
    document.removeEventListener('visibilitychange', onVisible);
    alive.value = false; // gives the page its title back
    untitle();
  }

  const pick = <K extends keyof Conversation>(key: K): ReadonlySignal<Conversation[K]> => computed(() => conv.value[key]);
  const convo = pick('convo');
  const messages = pick('messages');
  const escalating = pick('escalating');
  /** A person of the team has written in this handed-over conversation: notes on who answers and when give way to them. */
  const personHere = computed(() => convo.value === 'escalated' && messages.value.some((m) => m.role === 'operator'));
  /**
   * "Talk to a person" is offered: `ESCALATION_OFFER` (docs/api.md "People") `always` offers it
   * before the first message too (the conversation that message starts then goes to a person),
   * `after_first_message` once there is a conversation, `never` not at all.
   */
  const canEscalate = computed(() => {
    const offer = config.value?.handoff?.offer ?? 'always';
    if (!config.value?.features.escalation || offer === 'never' || escalating.value) return false;
    return convo.value === 'active' || (convo.value === 'none' && offer === 'always');
  });

  /** Everything components read: signals, none of them writable. */
  const state = {
    open: open as ReadonlySignal<boolean>,
    inline: inline as ReadonlySignal<boolean>,
    online: online as ReadonlySignal<boolean>,
    reachable: reachable as ReadonlySignal<boolean>,
    config: config as ReadonlySignal<PublicConfig | undefined>,
    /** The whole conversation, one value (apply-event.ts); the signals below are its parts. */
    conversation: conv,
    messages,
    convo,
    typing: pick('typing'),
    notice: pick('notice'),
    votes: pick('votes'),
    rating: pick('rating'),
    contact: pick('contact'),
    hasMore: pick('hasMore'),
    gone: pick('gone'),
    escalating,
    /** The bot's lines about a handoff: no votes on them (votable.ts). */
    handoff: pick('handoff'),
    unread: conversation.unreadCount,
    loadingOlder: conversation.loadingOlder,
    draft: outbox.draft,
    /** The last message was refused; its text is back in `draft`. */
    failed: outbox.failed,
    charsLeft,
    chosen: outbox.chosen,
    sentFiles: outbox.sentFiles,
    upload: outbox.uploadProblem,
    user: signedIn.user,
    view: signedIn.view,
    conversations: signedIn.conversations,
    past: signedIn.past,
    switched: signedIn.switched,
    /** A signed-in visitor came back to a conversation of theirs: "Welcome back" until they write. */
    welcome: signedIn.back,
    proactive: engage.proactive,
    bubble: engage.bubble,
    /** The visitor's answers to the pre-chat form in this tab (`{}`: skipped), until then undefined. */
    prechat: prechat.answers,
    canEscalate,
    personHere,
    /** Handed to a person (or asked to be) and none has written yet: the panel says one will, and, while away, when. */
    awaitingPerson: computed(() => (convo.value === 'escalated' ? !personHere.value : escalating.value && convo.value !== 'archived')),
  };

  const actions = {
    setOpen,
    /** The composer's text as typed. */
    setDraft: outbox.setDraft,
    /** Rendered inline (`<parley-chat>`) or floating. */
    setInline: (on: boolean) => void (inline.value = on),
    send: (text: string) => (carryPage(), outbox.send(text)),
    update,
    submit,
    /** Adds files as chips for the next message (those over the limits are refused). */
    attach: outbox.attach,
    /** Takes a chosen file away. */
    removeFile: outbox.removeFile,
    retryUpload: outbox.retryUpload,
    /** Hides the message about the last files (the × beside it). */
    dismissUpload: outbox.dismissUpload,
    escalate,
    loadOlder: conversation.loadOlder,
    identify,
    reset,
    restart,
    boot,
    destroy,
    /** Rates the ended conversation (CSAT); see `sendRating` (rating.ts, with the question in the parts chunk). */
    rate: (score: number, comment?: string) => loadParts().then((p) => p.sendRating(auth, conversation.rated, score, comment)),
    /**
     * Leaves an address for the team (POST /api/contact); every tab learns it from the stream.
     * Before there is a conversation it is kept with the pre-chat answers and goes once the first message starts one.
     */
    leaveContact: async (email: string, consent?: boolean) => {
      if (conv.value.convo === 'none') return prechat.hold(email, consent);
      // `locale`: which language's consent text the visitor read.
      await auth.authed('POST /api/contact', { body: { email, ...(consent !== undefined && { consent, locale: localeTag(locale) }) } });
      conversation.contacted(email);
    },
    /** The pre-chat form's answers (`{}`: skipped); they go along once the first message starts a conversation. */
    givePrechat: prechat.give,
    ...engage.actions,
    ...signedIn.actions,
  };
  // `bff`: site-relative pictures (operators, the bot) are on its origin.
  return { state, actions, bff, prefs };
}

/** One widget instance's store. */
export type Store = ReturnType<typeof createStore>;

// Components know the store by this type (ui/ctx.ts).
declare module './ui/ctx.js' {
  // eslint-disable-next-line @typescript-eslint/no-empty-interface, @typescript-eslint/no-empty-object-type
  interface CtxStore extends Store {}
}
/** The state as components see it. */
export type State = Store['state'];

/** The page without its fragment: where a conversation started, for an email's continue link. */
const pageUrl = () => location.href.split('#')[0]!;
