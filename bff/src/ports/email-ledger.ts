/**
 * What an email to a conversation's visitor needs, gathered while the conversation goes on
 * (docs/api.md "Continuity by email").
 */
export interface Recipient {
  /** The address given with consent: the contact or pre-chat form, or a signed-in user's identity token. */
  email?: string;
  /** The page the visitor started on (`pageUrl`), without its fragment: where the continue link leads. */
  pageUrl?: string;
  /** The visitor's language, for the email's words. */
  locale?: string;
  /** An address that asked for no more emails about this conversation. */
  unsubscribed?: string;
  /** The newest event id an email has carried: the next one starts after it. */
  mailedUpTo?: number;
}

/** Whether the visitor is there: open event streams of the conversation, on any instance. */
export interface Presence {
  /** The latest time an open stream ends at (its token's expiry); undefined when none is open. */
  openUntil?: number;
  /** When the visitor's last stream closed: they saw everything stored before then. */
  leftAt?: number;
}

/** The answer to asking for the send slot: granted, or the time it frees (`EMAIL_MIN_INTERVAL_SEC`). */
export type SendClaim = { granted: true } | { granted: false; retryAt: number };

/**
 * The store's part in emailing visitors: recipients, presence, the schedule of conversations to
 * look at, and the claim that lets exactly one instance send each email. Memory, Redis and Redis
 * Cluster adapters pass one contract suite (test/contract/email-ledger-contract.ts).
 */
export interface EmailLedger {
  /** Merges `patch` into the conversation's recipient; the record lives `ttlMs` from its last change. */
  note(conversationId: string, patch: Recipient, ttlMs: number): Promise<void>;
  recipient(conversationId: string): Promise<Recipient | undefined>;
  /** A stream opened; it ends at `until` at the latest (its token's expiry), closed or not. */
  streamOpened(conversationId: string, streamId: string, until: number): Promise<void>;
  /** A stream closed at `at`. */
  streamClosed(conversationId: string, streamId: string, at: number): Promise<void>;
  /** Open streams (those whose `until` is after `now`) and the last close. */
  presence(conversationId: string, now: number): Promise<Presence>;
  /** Asks for a look at the conversation at `at`, unless one is asked for sooner already. */
  schedule(conversationId: string, at: number): Promise<void>;
  /** Takes up to `limit` conversations due by `now` off the schedule; each goes to one caller only. */
  takeDue(now: number, limit: number): Promise<string[]>;
  /** The send slot: granted when no email went out in the `intervalMs` before `now` (then it starts again at `now`). */
  claimSend(conversationId: string, now: number, intervalMs: number): Promise<SendClaim>;
}
