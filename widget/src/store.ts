/**
 * The widget's store: its state (state.ts) and the actions that change it. Sending goes through
 * an ordered outbox that survives a reload and waits out network failures. The store owns the
 * stream, timers and window listeners (through sync.ts and auth.ts) and `destroy()` releases them.
 */
import { batch } from '@preact/signals';
import type { PublicConfig } from '../../shared/types.js';
import { ApiError, request } from './api.js';
import { createAuth, isFatal } from './auth.js';
import { newId, serverCount, type ChatMessage } from './messages.js';
import { loadSession } from './session.js';
import { createSignedIn, sessionOf, type IdentitySource } from './signed-in.js';
import { createState, type Outgoing } from './state.js';
import { createSync, type Emit } from './sync.js';
import { createUploads } from './upload.js';

export type { Convo } from './state.js';
export type { Emit };

/** Creates the store of one widget instance talking to `bff`. */
export function createStore(bff: string, emit: Emit, profileName?: string, identity?: IdentitySource) {
  const st = createState();
  const report = (e: unknown) => {
    const err = e instanceof ApiError ? e : new ApiError(0, 'internal_error', String(e));
    emit('error', { code: err.code, message: err.message });
  };
  const auth = createAuth(bff, () => sync.lost(), report);
  const sync = createSync(bff, st, auth, emit, report);
  const signedIn = createSignedIn(bff, st, auth, sync, report);
  const qKey = auth.key + ':q';
  const oKey = auth.key + ':o';

  let outbox: Outgoing[] = [];
  let pumping = false;
  let destroyed = false;
  let retries = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let pendingVars: Record<string, unknown> | undefined;
  let name = profileName;

  // Per tab (sessionStorage): the queue and the open panel belong to this tab, not to the site.
  const remember = (key: string, value: string) => {
    try {
      sessionStorage.setItem(key, value);
    } catch {
      // storage unavailable: the queue still lives in memory
    }
  };
  // Files cannot be stored: an upload lives as long as the page.
  const saveOutbox = () => remember(qKey, JSON.stringify(outbox.filter((o) => !o.files)));

  // ---- sending -----------------------------------------------------------------------------

  async function start(item: Outgoing) {
    // Where the BFF verifies identities, names come from identity tokens only (it refuses a page's).
    const named = name && (st.config.value?.identity || 'off') === 'off';
    const body = { text: item.text, clientId: item.clientId, ...(named ? { profileName: name } : {}) };
    const r = await signedIn.start(body);
    auth.set(sessionOf(r));
    st.user.value = r.user;
    st.convo.value = 'active';
    sync.live();
    if (pendingVars) {
      const variables = pendingVars;
      pendingVars = undefined;
      auth.authed('/api/user', { method: 'PATCH', body: variables }).catch(report);
    }
  }

  // Any source: a retried upload's text may already be confirmed while its files go again.
  function mark(pending: ChatMessage['pending'], clientIds: string[], progress?: number) {
    st.messages.value = st.messages.value.map((m) => (clientIds.includes(m.clientId!) ? { ...m, pending, progress } : m));
  }

  /** Sends the queue in order; network failures keep it for later, refusals give the text back. */
  async function pump() {
    if (pumping || destroyed) return;
    pumping = true;
    clearTimeout(retryTimer);
    try {
      while (outbox.length && !destroyed) {
        const item = outbox[0]!;
        if (!st.online.value) return mark('queued', outbox.map((o) => o.clientId));
        mark('sending', [item.clientId]);
        try {
          if (item.files) await uploads.upload(item);
          else if (auth.session && !signedIn.fresh) await auth.authed('/api/messages', { body: { text: item.text, clientId: item.clientId } });
          else await start(item);
          retries = 0;
        } catch (e) {
          if (e instanceof ApiError && e.status === 0) {
            mark('queued', outbox.map((o) => o.clientId));
            retryTimer = setTimeout(pump, Math.min(30_000, 2000 * 2 ** retries++));
            return;
          }
          if (e instanceof ApiError && e.code === 'send_uncertain') {
            // The service may have it: no Retry, no text back in the box, so nothing is sent twice.
            outbox.shift();
            saveOutbox();
            mark('uncertain', [item.clientId]);
            report(e);
            continue;
          }
          if (e instanceof ApiError && e.code === 'conversation_archived') sync.setConvo('archived');
          // Uploads being off is not the conversation's end.
          else if (isFatal(e) && (e as ApiError).code !== 'feature_disabled') sync.lost();
          outbox.shift();
          saveOutbox();
          batch(() => {
            // Files stay with the error for Retry; a text that already arrived stays on screen.
            if (item.sent) mark(undefined, [item.clientId]);
            else st.messages.value = st.messages.value.filter((m) => m.clientId !== item.clientId || m.src !== 'l');
            if (item.files) st.upload.value = { code: (e as ApiError).code, item };
            else {
              st.draft.value = st.draft.value ? item.text + '\n' + st.draft.value : item.text;
              st.failed.value = true;
            }
          });
          report(e);
          continue;
        }
        outbox.shift();
        saveOutbox();
        mark(undefined, [item.clientId]);
        sync.setTyping(true);
      }
    } finally {
      pumping = false;
    }
  }

  /** Shows the item at once as the user's message and queues it. */
  function queue(item: Outgoing) {
    if (st.convo.value === 'archived') restart();
    st.failed.value = false;
    st.switched.value = false;
    const { clientId, text } = item;
    const m: ChatMessage = { id: clientId, clientId, role: 'user', text, src: 'l', pending: 'sending', createdAt: new Date().toISOString() };
    st.messages.value = [...st.messages.value, m];
    outbox.push(item);
    saveOutbox();
    void pump();
  }

  /** Shows `text` at once as the user's message and queues it; false for blank text. */
  function send(text: string): boolean {
    text = text.trim();
    if (!text) return false;
    queue({ clientId: newId(), text });
    return true;
  }

  const uploads = createUploads(bff, st, auth, {
    start,
    queue,
    mark,
    resend(item) {
      outbox.push(item);
      void pump();
    },
  });

  /** Sends the composer's text (also the retry after a failed send). */
  function submit() {
    if (send(st.draft.value)) st.draft.value = '';
  }

  /** Starts over: the next message opens a new conversation (other tabs follow). */
  function clearAll() {
    outbox = [];
    saveOutbox();
    sync.clear(true);
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
    signedIn.logout();
  }

  // ---- other actions -----------------------------------------------------------------------

  function setOpen(on: boolean) {
    if (st.open.value === on) return;
    st.open.value = on;
    if (on) sync.setUnread(0);
    remember(oKey, on ? '1' : '');
    emit(on ? 'open' : 'close');
  }

  async function escalate() {
    if (!st.canEscalate.value) return;
    st.escalating.value = true;
    try {
      await auth.authed('/api/escalate', { method: 'POST' });
    } catch (e) {
      st.escalating.value = false;
      report(e);
    }
  }

  async function loadOlder() {
    if (st.loadingOlder.value || !auth.session) return;
    st.loadingOlder.value = true;
    try {
      await sync.history(serverCount(st.messages.value));
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
    if (auth.session) auth.authed('/api/user', { method: 'PATCH', body: p.variables }).catch(report);
    else pendingVars = { ...pendingVars, ...p.variables };
  }

  const onOnline = () => {
    st.online.value = true;
    retries = 0;
    void pump();
    sync.restart();
  };
  const onOffline = () => (st.online.value = false);

  const onStorage = (e: StorageEvent) => {
    signedIn.onStorage(e);
    sync.onStorage(e);
  };

  /** Restores the conversation and queue of a previous page load, signs in, then fetches the public settings. */
  async function boot() {
    addEventListener('storage', onStorage);
    addEventListener('online', onOnline);
    addEventListener('offline', onOffline);
    const s = loadSession(auth.key);
    if (s) sync.resume(s);
    try {
      outbox = JSON.parse(sessionStorage.getItem(qKey) || '[]') as Outgoing[];
      if (sessionStorage.getItem(oKey)) setOpen(true);
    } catch {
      outbox = [];
    }
    const now = new Date().toISOString();
    const queued = outbox.map((o): ChatMessage => ({ id: o.clientId, clientId: o.clientId, role: 'user', text: o.text, src: 'l', pending: 'queued', createdAt: now }));
    st.messages.value = [...st.messages.value, ...queued];
    if (identity) await signedIn.identify(identity);
    void pump();
    try {
      st.config.value = await request<PublicConfig>(bff, '/api/config');
    } catch (e) {
      report(e);
    }
  }

  function destroy() {
    destroyed = true;
    sync.destroy();
    clearTimeout(retryTimer);
    removeEventListener('storage', onStorage);
    removeEventListener('online', onOnline);
    removeEventListener('offline', onOffline);
  }

  const actions = { setOpen, send, submit, attach: uploads.attach, retryUpload: uploads.retry, escalate, loadOlder, identify, reset, restart, boot, destroy };
  return { ...st, ...actions, ...signedIn.actions };
}

/** One widget instance's store. */
export type Store = ReturnType<typeof createStore>;
