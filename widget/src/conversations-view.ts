/**
 * A signed-in user's Conversations view (docs/api.md "Signed-in users"), in the parts chunk: the
 * list of their conversations, opening one (an open one becomes the current one, an ended one is
 * shown read-only with its history), and back to the chat. It writes the view's signals, which
 * signed-in.ts makes (so the panel reads them before this chunk comes) and hands to it alone.
 */
import { effect, type Signal } from '@preact/signals';
import type { ConversationSummary, SessionResponse } from '../../shared/types.js';
import type { Answer, RouteKey } from '../../shared/routes.js';
import { ApiError, type CallArgs } from './api.js';
import { botDone } from './apply-event.js';
import type { Auth } from './auth.js';
import type { ConversationSlice } from './conversation.js';
import { mergeMessages, type ChatMessage } from './messages.js';

/** An ended conversation shown read-only: its summary and history. */
export interface PastConversation {
  summary: ConversationSummary;
  messages: ChatMessage[];
}

/** The view's signals: what the panel shows (the chat, the list, a past conversation), the list, the past conversation. */
export interface ViewSignals {
  view: Signal<'chat' | 'list' | 'past'>;
  conversations: Signal<ConversationSummary[] | undefined>;
  past: Signal<PastConversation | undefined>;
}

/** What the view needs of the signed-in slice. */
export interface ViewDeps {
  auth: Auth;
  conversation: ConversationSlice;
  /** A request about the user's own conversations (with the conversation's token, else the user token). */
  asUser<K extends RouteKey>(key: K, ...args: CallArgs<K>): Promise<Answer<K>>;
  /** Shows the conversation of a session answer (the current one kept in place when it is the same). */
  adopt(r: SessionResponse): void;
  /** False once "New conversation" was chosen: the current session is then not what the chat shows. */
  current(): boolean;
  /** A conversation of the list became the current one: "New conversation" no longer holds. */
  continued(): void;
  report(e: unknown): void;
}

export function createConversationsView({ view, conversations, past }: ViewSignals, d: ViewDeps) {
  const { auth } = d;
  // The list shows this conversation as its stream tells (an operator ended it, the team took it).
  const follow = effect(() => {
    const c = d.conversation.state.value.convo;
    const s = auth.session;
    const list = conversations.peek();
    if (s && list && botDone(c)) conversations.value = list.map((x) => (x.sessionId === s.sessionId ? { ...x, state: c } : x));
  });

  /** Reads the list again: when it is shown, and when its tab shows again (another device or an operator may have changed it). */
  async function refresh() {
    try {
      conversations.value = (await d.asUser('GET /api/conversations')).items;
    } catch (e) {
      d.report(e);
    }
  }

  /** Makes an open conversation the current one; false when it ended meanwhile (it is then shown read-only). */
  async function continueIn(sessionId: string): Promise<boolean> {
    try {
      const r = await d.asUser('POST /api/conversations/:sessionId/current', { params: { sessionId } });
      d.continued();
      d.adopt(r);
      view.value = 'chat';
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.code === 'conversation_archived') return false;
      throw e;
    }
  }

  return {
    /** Shows the user's conversations. */
    list() {
      view.value = 'list';
      return refresh();
    },
    /**
     * Opens a conversation of the list: the current one in the chat; another open one becomes the current one
     * (`POST /api/conversations/{id}/current`, saved so every tab follows); an ended one read-only with its history.
     */
    async open(c: ConversationSummary) {
      if (c.sessionId === auth.session?.sessionId && d.current()) return void (view.value = 'chat');
      try {
        if (c.state !== 'archived' && (await continueIn(c.sessionId))) return;
        const page = await d.asUser('GET /api/messages', { query: { limit: 50, sessionId: c.sessionId } });
        past.value = { summary: c, messages: mergeMessages([], page.items, 'h') };
        view.value = 'past';
      } catch (e) {
        d.report(e);
      }
    },
    showChat: () => void (view.value = 'chat'),
    /** The tab shows again: a list on screen is read again. */
    onVisible: () => void (view.value === 'list' && refresh()),
    /** The user is forgotten (logout): nothing of theirs stays shown. */
    forget() {
      view.value = 'chat';
      conversations.value = past.value = undefined;
    },
    destroy: follow,
  };
}

export type ConversationsView = ReturnType<typeof createConversationsView>;
