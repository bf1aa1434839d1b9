/**
 * Keeping the conversation in step with the BFF: the event stream, history pages, the
 * conversation's lifecycle (resume, lost, cleared) and other tabs of the same site.
 */
import { batch } from '@preact/signals';
import type { Message, MessagesPage, StreamEventName } from '../../shared/types.js';
import { isFatal, type Auth } from './auth.js';
import { openStream, type Stream } from './events.js';
import { sharedStream } from './shared-stream.js';
import { applyDelta, mergeMessages } from './messages.js';
import { isExpired, loadSession, type SessionData } from './session.js';
import type { Convo, State } from './state.js';

export type Emit = (event: string, data?: unknown) => void;

const PAGE = 20;
const TYPING_MS = 30_000;

/** Creates the synchronisation of `st` with the BFF through `auth`. */
export function createSync(bff: string, st: State, auth: Auth, emit: Emit, report: (e: unknown) => void) {
  let stream: Stream | undefined;
  let streamToken: string | undefined;
  let typingTimer: ReturnType<typeof setTimeout> | undefined;

  function setTyping(on: boolean) {
    st.typing.value = on;
    clearTimeout(typingTimer);
    if (on) typingTimer = setTimeout(() => (st.typing.value = false), TYPING_MS);
  }

  function setUnread(n: number) {
    if (n === st.unread.value) return;
    st.unread.value = n;
    emit('unread', { count: n });
  }

  function setConvo(c: Convo) {
    st.convo.value = c;
    if (c === 'archived') setTyping(false);
    const s = auth.session;
    if (s) {
      s.state = c;
      auth.save();
    }
  }

  /** Opens the stream for the current session (closing any previous one), shared with other tabs. */
  function live() {
    stream?.close();
    const url = async () => {
      if (auth.session && isExpired(auth.session)) await auth.refresh();
      const s = auth.session;
      if (!s) return undefined;
      streamToken = s.token;
      // A single-use ticket, not the token, goes in the URL (URLs end up in access logs).
      const { ticket } = await auth.authed<{ ticket: string }>('/api/events/ticket', { method: 'POST' });
      const last = s.lastEventId ? '&lastEventId=' + encodeURIComponent(s.lastEventId) : '';
      return `${bff}/api/events?ticket=${encodeURIComponent(ticket)}${last}`;
    };
    stream = sharedStream(
      `parley-stream:${bff}:${auth.session?.sessionId ?? ''}`,
      (relay) =>
        openStream(url, {
          event(name, data, id) {
            onEvent(name, data, id);
            // The end of this tab's token is this tab's business: others would refresh it too.
            if (!(name === 'error' && data?.code === 'token_expired')) relay([name, data, id]);
          },
          status: () => {},
        }),
      ([name, data, id]) => onEvent(name as StreamEventName, data, id),
    );
  }

  function onEvent(event: StreamEventName, data: any, id: string) {
    const s = auth.session;
    if (!s) return;
    if (id) {
      s.lastEventId = id;
      auth.save();
    }
    if (event === 'message') receive(data as Message);
    else if (event === 'message_delta') {
      setTyping(false);
      st.messages.value = applyDelta(st.messages.value, String(data.id), String(data.delta ?? ''));
    } else if (event === 'state') {
      const state = String(data.state);
      setConvo(state === 'escalated' ? 'escalated' : /archived|closed|ended/.test(state) ? 'archived' : 'active');
    } else if (event === 'archived') setConvo('archived');
    else if (event === 'error') {
      // The stream ends at its token's expiry, which may be a token we already replaced.
      if (data.code === 'token_expired') (s.token === streamToken ? auth.refresh() : Promise.resolve()).then(() => stream?.restart(), report);
      else {
        setTyping(false);
        // A store hiccup only means the stream reconnects; anything else the user should know.
        if (data.code !== 'store_unavailable') st.notice.value = String(data.code);
        emit('error', data);
      }
    }
  }

  /** Merges a message from the stream (or the BFF's answer to a send). */
  function receive(m: Message) {
    const fresh = !st.messages.value.some((x) => x.id === m.id);
    st.messages.value = mergeMessages(st.messages.value, [m], 's');
    if (!fresh) return;
    // A user message (from this tab or another) means the agent is now working on an answer.
    setTyping(m.role === 'user');
    if (m.role !== 'user') st.notice.value = undefined;
    if (m.role !== 'user' && !st.open.value && !st.inline.value) setUnread(st.unread.value + 1);
    emit('message', m);
  }

  /** Loads the history page at `offset` (0 = newest) in front of what is shown. */
  async function history(offset: number) {
    const page = await auth.authed<MessagesPage>(`/api/messages?limit=${PAGE}&offset=${offset}`);
    st.messages.value = mergeMessages(st.messages.value, page.items, 'h', true);
    st.hasMore.value = page.hasMore;
  }

  /** Continues a stored conversation: stream from its last event, newest history page. */
  function resume(s: SessionData) {
    auth.set(s, false);
    st.user.value = s.user;
    st.convo.value = s.state === 'escalated' || s.state === 'archived' ? s.state : 'active';
    live();
    history(0).catch((e) => (isFatal(e) ? lost() : report(e)));
  }

  function stop() {
    stream?.close();
    stream = undefined;
  }

  /** The credentials no longer work: forget them everywhere; what is on screen stays, marked as ended. */
  function lost() {
    stop();
    auth.set(undefined);
    st.user.value = undefined;
    setConvo(st.messages.value.length ? 'archived' : 'none');
  }

  /** Empties the conversation on screen (messages still queued in this tab stay unless `dropQueued`). */
  function clear(dropQueued: boolean) {
    stop();
    auth.set(undefined, false);
    batch(() => {
      st.user.value = undefined;
      st.switched.value = false;
      st.messages.value = st.messages.value.filter((m) => !dropQueued && m.src === 'l');
      st.hasMore.value = false;
      st.failed.value = false;
      st.upload.value = undefined;
      st.notice.value = undefined;
      st.escalating.value = false;
      st.convo.value = 'none';
      setTyping(false);
      setUnread(0);
    });
  }

  /** Another tab started, reset, or refreshed the conversation. */
  function onStorage(e: StorageEvent) {
    if (e.key !== null && e.key !== auth.key) return;
    const next = loadSession(auth.key);
    const s = auth.session;
    if (!next) {
      if (s) clear(false);
    } else if (next.sessionId !== s?.sessionId) {
      clear(false);
      resume(next);
    } else if (next.refreshToken !== s.refreshToken && !isExpired(next)) {
      auth.set({ ...s, token: next.token, refreshToken: next.refreshToken, expiresAt: next.expiresAt }, false);
    }
  }

  return {
    setTyping,
    setUnread,
    setConvo,
    live,
    receive,
    history,
    resume,
    lost,
    clear,
    onStorage,
    restart: () => stream?.restart(),
    destroy() {
      stop();
      auth.stop();
      clearTimeout(typingTimer);
    },
  };
}

export type Sync = ReturnType<typeof createSync>;
