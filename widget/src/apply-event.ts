/**
 * The one path by which a stream event changes what the widget shows: a pure reducer over the
 * typed `StreamEvent` union. The store applies the result and carries out the effects it names.
 */
import type { FeedbackValue, Message, StreamEvent } from '../../shared/types.js';
import { applyDelta, endStreams, mergeMessages, type ChatMessage } from './messages.js';
import type { Convo } from './state.js';

/** The part of a widget's state that stream events change. */
export interface Conversation {
  messages: ChatMessage[];
  convo: Convo;
  /** An answer is expected: the agent is working on one. */
  typing: boolean;
  /** The code of a stream error the user should know of, until the next answer. */
  notice: string | undefined;
  /** Agent and operator messages not yet seen. */
  unread: number;
  /** The visitor's vote on each answer, by message id. */
  votes: Record<string, FeedbackValue | undefined>;
  /** The visitor's rating of the ended conversation (from any tab), once it is given. */
  rating: { score: number; comment?: string } | undefined;
  /** The address the visitor left for the team (from any tab), once it is given. */
  contact: string | undefined;
}

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
          unread: answer && !seen ? state.unread + 1 : state.unread,
        },
        message: m,
      };
    }
    case 'message_delta':
      return { next: { ...state, typing: false, messages: applyDelta(state.messages, String(event.data.id), String(event.data.delta ?? '')) } };
    case 'state': {
      // The BFF sends the widget's own three words (docs/api.md, Event stream).
      const convo = event.data.state;
      return { next: { ...state, convo, typing: convo === 'active' && state.typing } };
    }
    case 'archived':
      return { next: { ...state, convo: 'archived', typing: false, messages: endStreams(state.messages) } };
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
