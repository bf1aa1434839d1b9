/**
 * The conversation's actions: what stream events, history pages and the conversation's lifecycle
 * (resume, lost, cleared, another tab's change) do to the state. Stream events go through the
 * pure `applyEvent`; this module writes its result and carries out the effects it names.
 */
import { batch } from '@preact/signals';
import type { MessagesPage, StreamEvent } from '../../shared/types.js';
import { applyEvent, type Conversation } from './apply-event.js';
import { isFatal, type Auth } from './auth.js';
import { mergeMessages } from './messages.js';
import { isExpired, loadSession, type SessionData } from './session.js';
import { botDone, type Convo, type State } from './state.js';
import type { Emit, Sync } from './sync.js';

// Dots stop by themselves if the answer never comes.
const TYPING_MS = 30_000;

/** Creates the conversation actions of one store. */
export function createConversation(st: State, auth: Auth, sync: Sync, emit: Emit, report: (e: unknown) => void, onUnseen = () => {}) {
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  /** The person who wrote last in this conversation (for the `operator` event). */
  let operator: string | undefined;

  function setTyping(on: boolean, ms = TYPING_MS) {
    st.typing.value = on;
    clearTimeout(typingTimer);
    if (on) typingTimer = setTimeout(() => (st.typing.value = false), ms);
  }

  // Unread answers are kept by id in localStorage, per conversation: a reload keeps them, every tab
  // shows the same count, and a message that reaches several tabs counts once.
  const unreadKey = auth.key + ':unread';
  function storedUnread(): string[] {
    try {
      const u = JSON.parse(localStorage.getItem(unreadKey) || 'null') as { sessionId: string; ids: string[] } | null;
      return u && u.sessionId === auth.session?.sessionId ? u.ids : [];
    } catch {
      return [];
    }
  }
  function showUnread(n: number) {
    if (n === st.unread.value) return;
    st.unread.value = n;
    emit('unread', { count: n });
  }
  function storeUnread(ids: string[]) {
    try {
      if (ids.length) localStorage.setItem(unreadKey, JSON.stringify({ sessionId: auth.session?.sessionId, ids }));
      else localStorage.removeItem(unreadKey);
    } catch {
      // storage unavailable: the count lives in this page only
    }
    showUnread(ids.length);
  }
  function addUnread(id: string) {
    const ids = storedUnread();
    storeUnread(ids.includes(id) ? ids : [...ids, id].slice(-100));
  }
  /** The panel was opened (in this tab): nothing is unread any more, in any tab. */
  const markRead = () => storeUnread([]);

  function setConvo(c: Convo) {
    const s = auth.session;
    // The page hears the conversation go to a person or end (not a reset's 'none', not the resume's return to 'active').
    if (s && c !== st.convo.value && c !== 'active' && c !== 'none') emit('conversation', { sessionId: s.sessionId, state: c });
    st.convo.value = c;
    // The service answered an ask for a person (or moved on): what it says now holds, not the ask.
    st.escalating.value = false;
    if (c !== 'archived') st.gone.value = false;
    if (c === 'archived') setTyping(false);
    if (s) {
      s.state = c;
      auth.save();
    }
    // A signed-in user's list shows this conversation as its stream tells (an operator ended it, the team took it).
    const list = st.conversations.value;
    if (s && list && botDone(c)) st.conversations.value = list.map((x) => (x.sessionId === s.sessionId ? { ...x, state: c } : x));
  }

  /** One stream event (from this tab's stream or relayed by another tab), with its SSE id. */
  function apply(event: StreamEvent, id: string) {
    const s = auth.session;
    if (!s) return;
    if (id) s.lastEventId = id;
    const now: Conversation = { messages: st.messages.value, convo: st.convo.value, typing: st.typing.value, notice: st.notice.value, unread: st.unread.value, votes: st.votes.value, rating: st.rating.value, contact: st.contact.value };
    // A hidden tab sees nothing, even with the chat open.
    const { next, message, error, expired, reload } = applyEvent(now, event, (st.open.value || st.inline.value) && !document.hidden);
    // Kept with the session, so a reload still says why the last question has no answer.
    s.notice = next.notice;
    if (id || next.notice !== now.notice) auth.save();
    batch(() => {
      st.messages.value = next.messages;
      st.notice.value = next.notice;
      st.votes.value = next.votes;
      if (next.rating !== now.rating) rated(next.rating);
      if (next.contact !== now.contact) contacted(next.contact);
      if (next.convo !== now.convo) setConvo(next.convo);
      // A new question restarts the dots' timeout; anything else only switches them.
      if (next.typing !== now.typing || (next.typing && message)) setTyping(next.typing);
      // applyEvent counts an unseen answer; which one it was is kept, so tabs and reloads agree.
      if (next.unread !== now.unread && message) addUnread(message.id);
    });
    if (next.unread > now.unread) onUnseen();
    if (expired) sync.renew().catch(report);
    // An answer after a message that may not have arrived: the service's history says whether it did
    // (the copy there confirms it, messages.ts), so "may have been sent" does not stay for good.
    if (reload || (message && message.role !== 'user' && st.messages.value.some((m) => m.pending === 'uncertain'))) history(0).catch(report);
    if (message) emit('message', message);
    // A person joined: their first message here, or another person's.
    const person = message?.role === 'operator' && (message.author?.name || message.operatorName);
    if (person && person !== operator) emit('operator', { name: (operator = person) });
    if (event.event === 'feedback') emit('feedback', { messageId: event.data.messageId, vote: event.data.value });
    if (error) emit('error', error);
  }

  /** The conversation was rated (here or in another tab): kept with the session, so a reload does not ask again. */
  function rated(rating: { score: number; comment?: string } | undefined) {
    // Once per rating, whether this tab sent it or the stream (another tab) told it.
    if (rating && rating.score !== st.rating.value?.score) emit('rating', { score: rating.score });
    st.rating.value = rating;
    const s = auth.session;
    if (s && rating) {
      s.rated = rating.score;
      auth.save();
    }
  }

  /** The visitor left an address for the team (here or in another tab): kept with the session too. */
  function contacted(email: string | undefined) {
    // That an address was left, never the address.
    if (email && email !== st.contact.value) emit('contact', {});
    st.contact.value = email;
    const s = auth.session;
    if (s && email) {
      s.contact = email;
      auth.save();
    }
  }

  /** Puts a history page in front of what is shown. */
  function showPage(page: MessagesPage) {
    st.messages.value = mergeMessages(st.messages.value, page.items, 'h', true);
    // Votes already known here (from the stream) are newer than the page.
    st.votes.value = { ...Object.fromEntries(page.items.map((m) => [m.id, m.feedback])), ...st.votes.value };
    st.hasMore.value = page.hasMore;
  }

  /** Loads the history page at `offset` (0 = newest). */
  async function history(offset: number) {
    showPage(await sync.page(offset));
  }

  /** After a reload: a question asked moments ago, with no answer and no failure yet, still shows the dots for the rest of their time. */
  async function newestPage() {
    await history(0);
    const last = st.messages.value[st.messages.value.length - 1];
    const left = TYPING_MS - (Date.now() - Date.parse(last?.createdAt ?? ''));
    if (last?.role === 'user' && left > 0 && st.convo.value === 'active' && !st.notice.value && !st.typing.value) setTyping(true, left);
  }

  /** Continues a stored conversation: stream from its last event, newest history page. */
  function resume(s: SessionData) {
    auth.set(s, false);
    st.user.value = s.user;
    st.convo.value = botDone(s.state) ? s.state : 'active';
    st.rating.value = s.rated ? { score: s.rated } : undefined;
    st.contact.value = s.contact;
    st.notice.value = s.notice;
    showUnread(storedUnread().length);
    sync.live();
    loadNewest();
  }

  /** The newest history page of a resumed conversation; when the BFF is out of reach, again by `catchUp`. */
  function loadNewest() {
    catchUp = () => {};
    newestPage().catch((e) => {
      if (isFatal(e)) return lost();
      catchUp = loadNewest;
      report(e);
    });
  }
  let catchUp = () => {};

  /**
   * The credentials no longer work: forget them everywhere; what is on screen stays, marked as
   * ended, also when nothing of it was loaded yet (a reload after the session ran out).
   */
  function lost() {
    sync.stop();
    auth.set(undefined);
    st.user.value = undefined;
    setConvo('archived');
    st.gone.value = true;
  }

  /** Empties the conversation on screen (messages still queued in this tab stay unless `dropQueued`). */
  function clear(dropQueued: boolean) {
    sync.stop();
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
      st.votes.value = {};
      st.rating.value = undefined;
      st.contact.value = undefined;
      st.convo.value = 'none';
      st.gone.value = false;
      setTyping(false);
      showUnread(0);
    });
  }

  /** Another tab started, reset, or refreshed the conversation. */
  function onStorage(e: StorageEvent) {
    if (e.key === null || e.key === unreadKey) {
      // Read where this tab shows the conversation; else the count another tab wrote.
      if (st.open.value && document.visibilityState === 'visible' && storedUnread().length) markRead();
      else showUnread(storedUnread().length);
    }
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
    markRead,
    setConvo,
    apply,
    rated,
    contacted,
    history,
    resume,
    /** Loads what a resume could not have while the BFF was out of reach. */
    catchUp: () => catchUp(),
    lost,
    clear,
    onStorage,
    destroy: () => clearTimeout(typingTimer),
  };
}

export type ConversationActions = ReturnType<typeof createConversation>;
