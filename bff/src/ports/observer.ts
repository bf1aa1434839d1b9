import type { VerifyFailure } from '../lib/webhook-verify.js';

/** What happened to one incoming webhook. */
export type WebhookOutcome =
  | 'stored'
  | 'duplicate'
  | 'ignored'
  | 'invalid_signature'
  | 'stale_timestamp'
  | 'bad_request'
  | 'too_large'
  | 'store_unavailable';

export interface WebhookObservation {
  outcome: WebhookOutcome;
  /** With `invalid_signature`: what the check found (`missing_signature` for an unsigned request). */
  reason?: VerifyFailure;
  eventId?: string;
  kind?: string;
  conversationId?: string;
  /** Time from first byte to answer, in milliseconds. */
  durationMs: number;
}

/** What became of one email to a visitor (docs/api.md "Continuity by email"). */
export type EmailOutcome = 'sent' | 'failed' | 'retried' | 'seen' | 'unsubscribed';

/**
 * Hooks for metrics and the demo's live inspector. Every method is optional and must be
 * cheap and non-throwing: observers never change what the BFF answers.
 */
export interface Observer {
  webhook?(observation: WebhookObservation): void;
  upstreamCall?(call: { target: 'agent' | 'gateway' | 'flow' | 'feedback'; operation: string; status: number | 'error'; durationMs: number }): void;
  streamOpened?(): void;
  streamClosed?(): void;
  /** A stream was refused: its conversation or its client address had the most open streams allowed. */
  streamRefused?(reason: 'conversation' | 'client'): void;
  /** Time from an event being stored to it being written to a stream, in milliseconds. */
  delivered?(latencyMs: number): void;
  /** A visitor voted on an answer (docs/api.md "Engagement"). */
  feedback?(value: 'up' | 'down'): void;
  /** A CSAT rating (1–5) was taken. */
  csat?(score: number): void;
  /** What became of one forward to FEEDBACK_WEBHOOK_URL: delivered, failed after its retries, or dropped (queue full). */
  feedbackForward?(outcome: 'delivered' | 'failed' | 'dropped'): void;
  /** An email to a visitor was sent, failed after its retries, retried, or not sent (seen, unsubscribed). */
  email?(outcome: EmailOutcome): void;
}
