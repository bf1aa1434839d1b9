import type { FeedbackValue } from '../../../shared/types.js';

/** One vote as it leaves the BFF (docs/api.md, "Feedback webhook"). */
export interface FeedbackPayload {
  /** The conversation (the `sessionId` the widget got). */
  sessionId: string;
  messageId: string;
  value: FeedbackValue;
  comment?: string;
  /** When the vote reached the BFF, ISO 8601. */
  createdAt: string;
}

/** A CSAT rating as it leaves the BFF (docs/api.md "People"). */
export interface CsatPayload {
  type: 'csat';
  sessionId: string;
  score: number;
  comment?: string;
  createdAt: string;
}

/** Where votes go besides the conversation's log (e.g. the operator's webhook). */
export interface FeedbackSink {
  /** Hands the vote over and returns at once: delivery never delays or fails the vote. */
  deliver(payload: FeedbackPayload | CsatPayload): void;
  /** Gives deliveries in flight a bounded time to finish. */
  close(): Promise<void>;
}
