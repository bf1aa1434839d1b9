/**
 * All of the widget's state as signals, changed only through the actions below. The store owns
 * the stream, the timers and the window listeners, and `destroy()` releases them.
 */
import { batch, computed, signal } from '@preact/signals';
import type { Message, MessagesPage, PublicConfig, SessionResponse, StreamEventName } from '../../shared/types.js';
import { ApiError, request, type RequestInit } from './api.js';
import { openStream, type Stream } from './events.js';
import { applyDelta, mergeMessages, serverCount, type ChatMessage } from './messages.js';
import { isExpired, loadSession, refreshDelay, refreshSession, saveSession, sessionKey, type SessionData } from './session.js';

/** Where the conversation stands: not started, with the agent, with a person, or over. */
export type Convo = 'none' | 'active' | 'escalated' | 'archived';

export type Emit = (event: string, data?: unknown) => void;

interface Outgoing {
  clientId: string;
  text: string;
}

const PAGE = 20;
const TYPING_MS = 30_000;

/** Creates the store of one widget instance talking to `bff`. */
export function createStore(bff: string, emit: Emit, profileName?: string) {
  const key = sessionKey(bff);
  const qKey = key + ':q';
  const open = signal(false);
  const messages = signal<ChatMessage[]>([]);
  const hasMore = signal(false);
  const loadingOlder = signal(false);
  const typing = signal(false);
  const convo = signal<Convo>('none');
  const unread = signal(0);
  const draft = signal('');
  const failed = signal(false);
  const online = signal(navigator.onLine !== false);
  const escalating = signal(false);
  const config = signal<PublicConfig | undefined>(undefined);
  const canEscalate = computed(() => !!config.value?.features.escalation && convo.value === 'active' && !escalating.value);

  let session: SessionData | undefined;
  let stream: Stream | undefined;
  let outbox: Outgoing[] = [];
  let pumping = false;
  let destroyed = false;
  let refreshing: Promise<void> | undefined;
  let pendingVars: Record<string, unknown> | undefined;
  let name = profileName;
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let retries = 0;
  let streamToken: string | undefined;

  const report = (e: unknown) => {
    const err = e instanceof ApiError ? e : new ApiError(0, 'internal_error', String(e));
    emit('error', { code: err.code, message: err.message });
  };
  // The conversation's credentials no longer work (BFF secret rotated, refresh token expired).
  const fatal = (e: unknown) => e instanceof ApiError && [401, 403, 404].includes(e.status);
  const persist = () => saveSession(key, session);
  const saveOutbox = () => {
    try {
      sessionStorage.setItem(qKey, JSON.stringify(outbox));
    } catch {
      // the queue still lives in memory
    }
  };

  function setTyping(on: boolean) {
    typing.value = on;
    clearTimeout(typingTimer);
    if (on) typingTimer = setTimeout(() => (typing.value = false), TYPING_MS);
  }

  function setUnread(n: number) {
    if (n === unread.value) return;
    unread.value = n;
    emit('unread', { count: n });
  }

  function setConvo(c: Convo) {
    convo.value = c;
    if (c === 'archived') setTyping(false);
    if (session) {
      session.state = c;
      persist();
    }
  }

  // ---- credentials -------------------------------------------------------------------------

  function refresh(): Promise<void> {
    const s = session;
    if (!s) return Promise.reject(new ApiError(401, 'unauthorized', 'No conversation'));
    return (refreshing ||= refreshSession(bff, key, s)
      .then((next) => {
        if (session?.sessionId !== next.sessionId) return;
        session = next;
        scheduleRefresh();
      })
      .catch((e: unknown) => {
        if (fatal(e)) lost();
        throw e;
      })
      .finally(() => (refreshing = undefined)));
  }

  function scheduleRefresh() {
    clearTimeout(refreshTimer);
    if (session) refreshTimer = setTimeout(() => refresh().catch(report), refreshDelay(session));
  }

  /** A request as the conversation: refreshes an expiring token first, and once more after `token_expired`. */
  async function authed<T>(path: string, init: RequestInit = {}): Promise<T> {
    const call = () => {
      if (!session) throw new ApiError(401, 'unauthorized', 'No conversation');
      return request<T>(bff, path, { ...init, token: session.token });
    };
    if (session && isExpired(session)) await refresh();
    try {
      return await call();
    } catch (e) {
      if (!(e instanceof ApiError) || e.code !== 'token_expired') throw e;
      await refresh();
      return call();
    }
  }

  // ---- stream ------------------------------------------------------------------------------

  function live() {
    stream?.close();
    stream = openStream(
      async () => {
        if (session && isExpired(session)) await refresh();
        const s = session;
        if (!s) return undefined;
        streamToken = s.token;
        const last = s.lastEventId ? '&lastEventId=' + encodeURIComponent(s.lastEventId) : '';
        return `${bff}/api/events?token=${encodeURIComponent(s.token)}${last}`;
      },
      { event: onEvent, status: () => {} },
    );
    scheduleRefresh();
  }

  function onEvent(event: StreamEventName, data: any, id: string) {
    if (!session) return;
    if (id) {
      session.lastEventId = id;
      persist();
    }
    if (event === 'message') receive(data as Message);
    else if (event === 'message_delta') {
      setTyping(false);
      messages.value = applyDelta(messages.value, String(data.id), String(data.delta ?? ''));
    } else if (event === 'state') {
      const st = String(data.state);
      setConvo(st === 'escalated' ? 'escalated' : /archived|closed|ended/.test(st) ? 'archived' : 'active');
    } else if (event === 'archived') setConvo('archived');
    else if (event === 'error') {
      // The stream ends at its token's expiry, which may be a token we already replaced.
      if (data.code === 'token_expired') (session.token === streamToken ? refresh() : Promise.resolve()).then(() => stream?.restart(), report);
      else {
        setTyping(false);
        emit('error', data);
      }
    }
  }

  function receive(m: Message) {
    const fresh = !messages.value.some((x) => x.id === m.id);
    messages.value = mergeMessages(messages.value, [m], 's');
    if (!fresh) return;
    // A user message (from this tab or another) means the agent is now working on an answer.
    setTyping(m.role === 'user');
    if (m.role !== 'user' && !open.value) setUnread(unread.value + 1);
    emit('message', m);
  }

  // ---- conversation lifecycle --------------------------------------------------------------

  async function history(offset: number) {
    const page = await authed<MessagesPage>(`/api/messages?limit=${PAGE}&offset=${offset}`);
    messages.value = mergeMessages(messages.value, page.items, 'h', true);
    hasMore.value = page.hasMore;
  }

  function resume(s: SessionData) {
    session = s;
    convo.value = s.state === 'escalated' || s.state === 'archived' ? s.state : 'active';
    live();
    history(0).catch((e) => (fatal(e) ? lost() : report(e)));
  }

  function stop() {
    stream?.close();
    stream = undefined;
    clearTimeout(refreshTimer);
    session = undefined;
  }

  /** Forgets the conversation everywhere; what is on screen stays, marked as ended. */
  function lost() {
    stop();
    persist();
    setConvo(messages.value.length ? 'archived' : 'none');
  }

  /** Empties the conversation; messages still queued in this tab survive unless `dropQueue`. */
  function clear(dropQueue: boolean) {
    stop();
    if (dropQueue) {
      outbox = [];
      saveOutbox();
    }
    batch(() => {
      messages.value = messages.value.filter((m) => !dropQueue && m.src === 'l');
      hasMore.value = false;
      failed.value = false;
      escalating.value = false;
      convo.value = 'none';
      setTyping(false);
      setUnread(0);
    });
  }

  /** Starts over: the next message opens a new conversation (other tabs follow). */
  function reset() {
    clear(true);
    persist();
  }

  async function start(item: Outgoing) {
    const body = { text: item.text, clientId: item.clientId, ...(name ? { profileName: name } : {}) };
    const r = await request<SessionResponse>(bff, '/api/session', { body });
    session = { sessionId: r.sessionId, token: r.token, refreshToken: r.refreshToken, expiresAt: r.expiresAt };
    convo.value = 'active';
    persist();
    live();
    if (pendingVars) {
      const vars = pendingVars;
      pendingVars = undefined;
      authed('/api/user', { method: 'PATCH', body: vars }).catch(report);
    }
  }

  // ---- sending -----------------------------------------------------------------------------

  function mark(pending: ChatMessage['pending'], clientIds: string[]) {
    messages.value = messages.value.map((m) => (m.src === 'l' && clientIds.includes(m.clientId!) ? { ...m, pending } : m));
  }

  /** Sends the queue in order; network failures keep it for later, refusals give the text back. */
  async function pump() {
    if (pumping || destroyed) return;
    pumping = true;
    clearTimeout(retryTimer);
    try {
      while (outbox.length && !destroyed) {
        const item = outbox[0]!;
        if (!online.value) return mark('queued', outbox.map((o) => o.clientId));
        mark('sending', [item.clientId]);
        try {
          if (session) await authed('/api/messages', { body: { text: item.text, clientId: item.clientId } });
          else await start(item);
          retries = 0;
        } catch (e) {
          if (e instanceof ApiError && e.status === 0) {
            mark('queued', outbox.map((o) => o.clientId));
            retryTimer = setTimeout(pump, Math.min(30_000, 2000 * 2 ** retries++));
            return;
          }
          if (e instanceof ApiError && e.code === 'conversation_archived') setConvo('archived');
          else if (fatal(e)) lost();
          outbox.shift();
          saveOutbox();
          batch(() => {
            messages.value = messages.value.filter((m) => m.clientId !== item.clientId || m.src !== 'l');
            draft.value = draft.value ? item.text + '\n' + draft.value : item.text;
            failed.value = true;
          });
          report(e);
          continue;
        }
        outbox.shift();
        saveOutbox();
        mark(undefined, [item.clientId]);
        setTyping(true);
      }
    } finally {
      pumping = false;
    }
  }

  /** Shows `text` at once as the user's message and queues it; false for blank text. */
  function send(text: string): boolean {
    text = text.trim();
    if (!text) return false;
    if (convo.value === 'archived') reset();
    failed.value = false;
    const clientId = 'c_' + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
    const m: ChatMessage = { id: clientId, clientId, role: 'user', text, src: 'l', pending: 'sending', createdAt: new Date().toISOString() };
    messages.value = [...messages.value, m];
    outbox.push({ clientId, text });
    saveOutbox();
    void pump();
    return true;
  }

  /** Sends the composer's text (also the retry after a failed send). */
  function submit() {
    if (send(draft.value)) draft.value = '';
  }

  // ---- other actions -----------------------------------------------------------------------

  function setOpen(on: boolean) {
    if (open.value === on) return;
    open.value = on;
    if (on) setUnread(0);
    try {
      sessionStorage.setItem(key + ':o', on ? '1' : '');
    } catch {
      // only restoring the open panel after a reload is lost
    }
    emit(on ? 'open' : 'close');
  }

  async function escalate() {
    if (!canEscalate.value) return;
    escalating.value = true;
    try {
      await authed('/api/escalate', { method: 'POST' });
    } catch (e) {
      escalating.value = false;
      report(e);
    }
  }

  async function loadOlder() {
    if (loadingOlder.value || !session) return;
    loadingOlder.value = true;
    try {
      await history(serverCount(messages.value));
    } catch (e) {
      report(e);
    } finally {
      loadingOlder.value = false;
    }
  }

  /** Sets the profile name for the next conversation and user variables (sent once one exists). */
  function identify(p: { profileName?: string; variables?: Record<string, unknown> }) {
    if (p.profileName) name = p.profileName;
    if (!p.variables) return;
    if (session) authed('/api/user', { method: 'PATCH', body: p.variables }).catch(report);
    else pendingVars = { ...pendingVars, ...p.variables };
  }

  // ---- window: other tabs, connectivity ----------------------------------------------------

  function onStorage(e: StorageEvent) {
    if (e.key !== null && e.key !== key) return;
    const next = loadSession(key);
    if (!next) {
      if (session) clear(false);
    } else if (next.sessionId !== session?.sessionId) {
      clear(false);
      resume(next);
    } else if (next.refreshToken !== session.refreshToken && !isExpired(next)) {
      session = { ...session, token: next.token, refreshToken: next.refreshToken, expiresAt: next.expiresAt };
      scheduleRefresh();
    }
  }

  const onOnline = () => {
    online.value = true;
    retries = 0;
    void pump();
    stream?.restart();
  };
  const onOffline = () => (online.value = false);

  /** Restores the conversation and queue of a previous page load, then fetches the public settings. */
  async function boot() {
    addEventListener('storage', onStorage);
    addEventListener('online', onOnline);
    addEventListener('offline', onOffline);
    const s = loadSession(key);
    if (s) resume(s);
    try {
      outbox = JSON.parse(sessionStorage.getItem(qKey) || '[]') as Outgoing[];
      if (sessionStorage.getItem(key + ':o')) setOpen(true);
    } catch {
      outbox = [];
    }
    const now = new Date().toISOString();
    messages.value = [...messages.value, ...outbox.map((o): ChatMessage => ({ id: o.clientId, clientId: o.clientId, role: 'user', text: o.text, src: 'l', pending: 'queued', createdAt: now }))];
    void pump();
    try {
      config.value = await request<PublicConfig>(bff, '/api/config');
    } catch (e) {
      report(e);
    }
  }

  function destroy() {
    destroyed = true;
    stream?.close();
    clearTimeout(refreshTimer);
    clearTimeout(typingTimer);
    clearTimeout(retryTimer);
    removeEventListener('storage', onStorage);
    removeEventListener('online', onOnline);
    removeEventListener('offline', onOffline);
  }

  return {
    open, messages, hasMore, loadingOlder, typing, convo, unread, draft, failed, online, escalating, config, canEscalate,
    setOpen, send, submit, escalate, loadOlder, identify, reset, boot, destroy,
  };
}

/** One widget instance's store. */
export type Store = ReturnType<typeof createStore>;
