/**
 * The conversation as one value, and the one path by which a stream event changes it: a pure
 * reducer over the typed `StreamEvent` union. conversation.ts holds the value in one signal,
 * applies the result and carries out the effects the outcome names.
 */
import type { FeedbackValue, Message, SessionUser, StreamEvent } from '../../shared/types.js';
import { applyDelta, endStreams, mergeMessages, type ChatMessage } from './messages.js';

/** Where the conversation stands: not started, with the agent, with a person, or over. */
export type Convo = 'none' | 'active' | 'escalated' | 'archived';

/** True once the bot no longer has the conversation: a person has it (escalated), or it ended (archived). */
export const botDone = (c: unknown): c is 'escalated' | 'archived' => c === 'escalated' || c === 'archived';

/** The conversation on screen: what stream events, history pages and the visitor's actions change. */
export interface Conversation {
  messages: ChatMessage[];
  convo: Convo;
  /** An answer is expected: the agent is working on one. */
  typing: boolean;
  /** The code of a stream error the user should know of, until the next answer. */
  notice?: string | undefined;
  /** Agent and operator messages not yet seen, by id (a message that reaches several tabs counts once). */
  unread: string[];
  /** The visitor's vote on each answer, by message id. */
  votes: Record<string, FeedbackValue | undefined>;
  /** The visitor's rating of the ended conversation (from any tab), once it is given. */
  rating?: { score: number; comment?: string } | undefined;
  /** The address the visitor left for the team (from any tab), once it is given. */
  contact?: string | undefined;
  /**
   * The bot's lines that came after the conversation was handed to a person (the notice that one is
   * coming): no answers, no votes. Undefined until this page sees the handoff.
   */
  handoff?: string[] | undefined;
  /** An older page of history exists. */
  hasMore: boolean;
  /** A person was asked for and the service has not said yet that one has it. */
  escalating: boolean;
  /**
   * The conversation ended here because it can no longer be reached (its credentials were
   * refused, or the service no longer knows it), not by anyone's hand: nothing to rate.
   */
  gone: boolean;
  /** The signed-in user the conversation belongs to (docs/api.md "Signed-in users"), if any. */
  user?: SessionUser | undefined;
  /** The id of the last stream event applied: the stream resumes after it. */
  lastEventId?: string | undefined;
}

/** No conversation: what a new visitor sees, and what a reset leaves. */
export const EMPTY: Conversation = { messages: [], convo: 'none', typing: false, unread: [], votes: {}, hasMore: false, escalating: false, gone: false };

/** The new state, and what else the event asks for. */
export interface Outcome {
  next: Conversation;
  /** A message new to this tab, to report to the page. */
  message?: Message;
  /** A stream error to report to the page. */
  error?: { code: string; message: string };
  /** Events may have been missed: reload the newest history page. */
  reload?: boolean;
  /** The stream's token expired: refresh it and reconnect. */
  expired?: boolean;
}

/**
 * The conversation in the state `convo`, as the service says: what it says now holds, not an ask
 * for a person; an ended conversation has no dots.
 */
export function moved(state: Conversation, convo: Convo): Conversation {
  return {
    ...state,
    convo,
    escalating: false,
    gone: convo === 'archived' && state.gone,
    typing: convo === 'active' && state.typing,
  };
}

/**
 * Applies one stream event. `seen`: the messages are on screen (panel open, or inline), so a new
 * answer is not unread.
 */
export function applyEvent(state: Conversation, event: StreamEvent, seen: boolean): Outcome {
  switch (event.event) {
    case 'message': {
      const m = event.data;
      // A streamed reply exists since its first delta: it is new once it is complete.
      const fresh = !state.messages.some((x) => x.id === m.id && !x.streaming);
      const messages = mergeMessages(state.messages, [m], 's');
      if (!fresh) return { next: { ...state, messages } };
      const answer = m.role !== 'user';
      return {
        next: {
          ...state,
          messages,
          // A user message (from this tab or another) is waiting for the agent, unless an answer
          // follows it already (a replay merged into the history's copy); nobody types for a person
          // who has not answered yet, so no dots once a conversation is escalated.
          typing: !answer && state.convo === 'active' && !messages.slice(messages.findIndex((x) => x.id === m.id) + 1).some((x) => x.role !== 'user'),
          notice: answer ? undefined : state.notice,
          unread: answer && !seen && !state.unread.includes(m.id) ? [...state.unread, m.id].slice(-100) : state.unread,
          // What the bot says once a person has the conversation is about the handoff, not an answer.
          handoff: m.role === 'bot' && state.convo === 'escalated' ? [...(state.handoff ?? []), m.id] : state.handoff,
        },
        message: m,
      };
    }
    case 'message_delta':
      return { next: { ...state, typing: false, messages: applyDelta(state.messages, String(event.data.id), String(event.data.delta ?? '')) } };
    case 'state': {
      // The BFF sends the widget's own three words (docs/api.md, Event stream).
      const next = moved(state, event.data.state);
      // Handed over now: what the bot says from here on is about the handoff.
      return { next: next.convo === 'escalated' && state.convo !== 'escalated' ? { ...next, handoff: state.handoff ?? [] } : next };
    }
    case 'archived':
      return { next: { ...moved(state, 'archived'), messages: endStreams(state.messages) } };
    case 'csat':
      return { next: { ...state, rating: { score: event.data.score, ...(event.data.comment && { comment: event.data.comment }) } } };
    case 'contact':
      return { next: { ...state, contact: event.data.email } };
    case 'variables':
      return { next: state };
    case 'error': {
      const { code, message } = event.data;
      if (code === 'token_expired') return { next: state, expired: true };
      // A store hiccup only means the stream reconnects; anything else the user should know.
      if (code === 'store_unavailable') return { next: { ...state, typing: false }, error: { code, message } };
      return { next: { ...state, typing: false, notice: code, messages: endStreams(state.messages) }, error: { code, message } };
    }
    case 'feedback':
      return { next: { ...state, votes: { ...state.votes, [event.data.messageId]: event.data.value } } };
    case 'reset':
      return { next: state, reload: true };
    default:
      return unhandled(event);
  }
}

// A new event kind in `StreamEventMap` fails to compile here until it is handled above.
function unhandled(event: never): never {
  throw new Error(`unhandled stream event ${(event as StreamEvent).event}`);
}
