/**
 * The conversation slice: one signal of the reducer's type (apply-event.ts), written here only.
 * Stream events go through the pure `applyEvent`; history pages, the visitor's own messages and
 * the conversation's lifecycle (resume, lost, cleared, another tab's change) through the actions
 * below. What survives a reload (the facts kept with the session, the unread ids) is derived from
 * the signal by effects, and a stored session is read back by one parse (`conversationOf`).
 */
import { batch, computed, effect, signal, type ReadonlySignal } from '@preact/signals';
import type { FeedbackValue, MessagesPage, SessionUser, StreamEvent } from '../../shared/types.js';
import { applyEvent, botDone, EMPTY, moved, type Conversation } from './apply-event.js';
import { isFatal, type Auth } from './auth.js';
import { mergeMessages, serverCount, type ChatMessage } from './messages.js';
import { conversationOf, factsOf, isExpired, loadSession, type SessionData } from './session.js';
import { keep, kept } from './storage.js';
import type { Emit, Sync } from './sync.js';

// Dots stop by themselves if the answer never comes.
const TYPING_MS = 30_000;

/** What the conversation needs to know of the page: whether its messages are on screen now. */
export interface Sight {
  /** The panel is open, or the chat is inline. */
  shown(): boolean;
}

/** Creates the conversation slice of one store. */
export function createConversation(auth: Auth, sync: Sync, emit: Emit, report: (e: unknown) => void, sight: Sight, onUnseen = () => {}) {
  const state = signal<Conversation>(EMPTY);
  const loadingOlder = signal(false);
  const update = (change: (c: Conversation) => Conversation) => (state.value = change(state.value));
  const set = (patch: Partial<Conversation>) => update((c) => ({ ...c, ...patch }));
  /**
   * Tells the page what changed between `now` and the conversation as it is (docs/api.md "Events"):
   * it went to a person or ended, it was rated, an address was left. Not for a resume or a reset,
   * which change nothing in the conversation itself.
   */
  function tell(now: Conversation) {
    const next = state.value;
    const s = auth.session;
    if (s && next.convo !== now.convo && botDone(next.convo)) emit('conversation', { sessionId: s.sessionId, state: next.convo });
    // Once per rating, whether this tab sent it or the stream (another tab) told it.
    if (next.rating && next.rating.score !== now.rating?.score) emit('rating', { score: next.rating.score });
    // That an address was left, never the address.
    if (next.contact && next.contact !== now.contact) emit('contact', {});
  }
  /** Changes the conversation as the service or the visitor did, and tells the page. */
  const change = (patch: (c: Conversation) => Conversation) => {
    const now = state.value;
    update(patch);
    tell(now);
  };
  const cleared: (() => void)[] = [];
  let typingTimer: ReturnType<typeof setTimeout> | undefined;
  /** The person who wrote last in this conversation (for the `operator` event). */
  let operator: string | undefined;

  /** The dots' own timeout, (re)started when they come on. */
  function arm(on: boolean, ms = TYPING_MS) {
    clearTimeout(typingTimer);
    if (on) typingTimer = setTimeout(() => set({ typing: false }), ms);
  }
  function setTyping(on: boolean, ms?: number) {
    set({ typing: on });
    arm(on, ms);
  }

  // Unread answers are kept by id in localStorage, per conversation: a reload keeps them, every tab
  // shows the same count, and a message that reaches several tabs counts once.
  const unreadKey = auth.key + ':unread';
  function storedUnread(): string[] {
    const u = kept<{ sessionId: string; ids: string[] }>('localStorage', unreadKey);
    return u?.sessionId === auth.session?.sessionId && Array.isArray(u?.ids) ? u.ids : [];
  }
  const unread = computed(() => state.value.unread);
  const unreadCount = computed(() => unread.value.length);
  let told = 0;
  const persisted = [
    effect(() => {
      const ids = unread.value;
      const sessionId = auth.session?.sessionId;
      if (sessionId) keep('localStorage', unreadKey, ids.length ? { sessionId, ids } : undefined);
    }),
    effect(() => {
      const count = unreadCount.value;
      if (count !== told) emit('unread', { count });
      told = count;
    }),
    // What survives a reload is kept beside the credentials, from the one signal.
    effect(() => {
      const c = state.value;
      if (c.convo !== 'none') auth.note(factsOf(c));
    }),
  ];
  const setUnread = (ids: string[]) => state.value.unread.join() !== ids.join() && set({ unread: ids });
  /** The panel was opened (in this tab): nothing is unread any more, in any tab. */
  const markRead = () => setUnread([]);

  /** One stream event (from this tab's stream or relayed by another tab), with its SSE id. */
  function apply(event: StreamEvent, id: string) {
    if (!auth.session) return;
    const now = state.value;
    // A hidden tab sees nothing, even with the chat open.
    const { next, message, error, expired, reload } = applyEvent(now, event, sight.shown() && !document.hidden);
    state.value = id ? { ...next, lastEventId: id } : next;
    tell(now);
    // A new question restarts the dots' timeout; anything else only switches them.
    if (next.typing !== now.typing || (next.typing && message)) arm(next.typing);
    if (next.unread.length > now.unread.length) onUnseen();
    if (expired) sync.renew().catch(report);
    // An answer after a message that may not have arrived: the service's history says whether it did
    // (the copy there confirms it, messages.ts), so "may have been sent" does not stay for good.
    if (reload || (message && message.role !== 'user' && next.messages.some((m) => m.pending === 'uncertain'))) history(0).catch(report);
    if (message) emit('message', message);
    // A person joined: their first message here, or another person's.
    const person = message?.role === 'operator' && (message.author?.name || message.operatorName);
    if (person && person !== operator) emit('operator', { name: (operator = person) });
    if (event.event === 'feedback') emit('feedback', { messageId: event.data.messageId, vote: event.data.value });
    if (error) emit('error', error);
  }

  /** Puts a history page in front of what is shown. */
  function showPage(page: MessagesPage) {
    update((c) => ({
      ...c,
      messages: mergeMessages(c.messages, page.items, 'h', true),
      // Votes already known here (from the stream) are newer than the page.
      votes: { ...Object.fromEntries(page.items.map((m) => [m.id, m.feedback])), ...c.votes },
      hasMore: page.hasMore,
    }));
  }

  /** Loads the history page at `offset` (0 = newest). */
  async function history(offset: number) {
    showPage(await sync.page(offset));
  }

  /** After a reload: a question asked moments ago, with no answer and no failure yet, still shows the dots for the rest of their time. */
  async function newestPage() {
    await history(0);
    const c = state.value;
    const last = c.messages[c.messages.length - 1];
    const left = TYPING_MS - (Date.now() - Date.parse(last?.createdAt ?? ''));
    if (last?.role === 'user' && left > 0 && c.convo === 'active' && !c.notice && !c.typing) setTyping(true, left);
  }

  /** Continues a stored conversation: stream from its last event, newest history page. */
  function resume(s: SessionData) {
    auth.set(s, false);
    state.value = { ...conversationOf(s), unread: storedUnread() };
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
    arm(false);
    change((c) => ({ ...moved(c, 'archived'), gone: true, user: undefined }));
  }

  /** Empties the conversation on screen (messages still queued in this tab stay unless `dropQueued`). */
  function clear(dropQueued: boolean) {
    sync.stop();
    auth.set(undefined, false);
    arm(false);
    batch(() => {
      update((c) => ({ ...EMPTY, messages: dropQueued ? [] : c.messages.filter((m) => m.src === 'l') }));
      for (const fn of cleared) fn();
    });
  }

  /** Another tab started, reset, or refreshed the conversation. */
  function onStorage(e: StorageEvent) {
    if (e.key === null || e.key === unreadKey) {
      // Read where this tab shows the conversation; else the count another tab wrote.
      const ids = storedUnread();
      setUnread(sight.shown() && document.visibilityState === 'visible' ? [] : ids);
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

  /** Marks the visitor's own messages (by `clientId`) as on their way, waiting, possibly delivered, or arrived (`undefined`). */
  function mark(pending: ChatMessage['pending'], clientIds: string[]) {
    // Any source: a retried upload's text may already be confirmed while its files go again. Not
    // "uncertain" once the stream brought it (the BFF found it in the service's history first).
    update((c) => ({ ...c, messages: c.messages.map((m) => (clientIds.includes(m.clientId!) && (pending !== 'uncertain' || m.src === 'l') ? { ...m, pending } : m)) }));
  }

  return {
    /** The conversation, read-only: only the actions here change it. */
    state: state as ReadonlySignal<Conversation>,
    /** An older history page is on its way. */
    loadingOlder: loadingOlder as ReadonlySignal<boolean>,
    unreadCount,
    setTyping,
    markRead,
    apply,
    history,
    resume,
    /** Loads what a resume could not have while the BFF was out of reach. */
    catchUp: () => catchUp(),
    lost,
    clear,
    onStorage,
    mark,
    /** Runs `fn` whenever the conversation is emptied (its slices start over with it). */
    onClear: (fn: () => void) => void cleared.push(fn),
    /** The visitor's own messages, shown at once before they are sent. */
    addLocal: (messages: ChatMessage[]) => update((c) => ({ ...c, messages: [...c.messages, ...messages] })),
    /** Takes back a message of this tab that was refused. */
    dropLocal: (clientId: string) => update((c) => ({ ...c, messages: c.messages.filter((m) => m.clientId !== clientId || m.src !== 'l') })),
    /** The conversation started with the visitor's first message (`user`: whose it is, when signed in). */
    started: (user: SessionUser | undefined) => set({ convo: 'active', user }),
    /** The conversation is now the signed-in `user`'s (a login claimed it). */
    ownedBy: (user: SessionUser | undefined) => set({ user }),
    /** The service says the conversation ended (a message to it was refused as archived). */
    ended: () => change((c) => moved(c, 'archived')),
    /** A person was asked for (true), or the ask failed (false). */
    asking: (escalating: boolean) => set({ escalating }),
    /** Records the visitor's vote at once; returns the one it replaced. */
    vote(messageId: string, value: FeedbackValue | undefined): FeedbackValue | undefined {
      const before = state.value.votes[messageId];
      set({ votes: { ...state.value.votes, [messageId]: value } });
      return before;
    },
    /** Stop: the streaming answers say they were stopped (the last words may still arrive). */
    stopStreams: () => update((c) => ({ ...c, messages: c.messages.map((m) => (m.streaming ? { ...m, stopped: true } : m)) })),
    /** The conversation was rated (here or in another tab). */
    rated: (rating: { score: number; comment?: string }) => change((c) => ({ ...c, rating })),
    /** The visitor left an address for the team (here or in another tab). */
    contacted: (contact: string) => change((c) => ({ ...c, contact })),
    /** Loads the next older history page. */
    async loadOlder() {
      if (loadingOlder.value || !auth.session) return;
      loadingOlder.value = true;
      try {
        await history(serverCount(state.value.messages));
      } catch (e) {
        report(e);
      } finally {
        loadingOlder.value = false;
      }
    },
    destroy() {
      clearTimeout(typingTimer);
      persisted.forEach((stop) => stop());
    },
  };
}

export type ConversationSlice = ReturnType<typeof createConversation>;
