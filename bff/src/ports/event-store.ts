import type { Author, StoredEvent, StreamEvent } from '../../../shared/types.js';

/**
 * Called for every event appended to a conversation after `subscribe` resolved, in id order.
 * `restarted` is true on the first event after the store lost data and its ids started over
 * (e.g. Redis restarted empty): that event's id may be one the listener has seen already.
 */
export type EventListener = (event: StoredEvent, restarted?: boolean) => void;

/** Result of `append`: the stored event, or `duplicate` when the dedup key was seen before. */
export type AppendResult = { status: 'stored'; event: StoredEvent } | { status: 'duplicate' };

/**
 * Per-conversation append-only event log with fan-out (docs/api.md "Event stream", "Webhooks").
 * Ids are integers that only grow within a conversation, one by one (from 1, or in memory mode
 * from the log's start time, so they grow across restarts too).
 * Adapters throw `StoreUnavailableError` when the backing store cannot be reached.
 */
export interface EventStore {
  /**
   * Appends an event. With `dedupKey`, the check "seen before?" and the append are one
   * atomic step: a key is only remembered once its event is stored, and a repeat is
   * reported as `duplicate` without storing anything. Keys are per conversation (so a Redis
   * Cluster checks them in the conversation's slot): every delivery of an event names its conversation.
   */
  append(conversationId: string, event: StreamEvent, options?: { dedupKey?: string }): Promise<AppendResult>;
  /**
   * `append` done at once, for a store that keeps its log in this process: the webhook's answer
   * then costs no promise and no microtask (docs/benchmarks.md). Absent where appending is I/O.
   */
  appendNow?(conversationId: string, event: StreamEvent, options?: { dedupKey?: string }): AppendResult;
  /** Events with `id > afterId`, oldest first, at most `limit` (retention may have dropped older ones). */
  read(conversationId: string, afterId: number, limit: number): Promise<StoredEvent[]>;
  /**
   * The newest id given out in the conversation (0 when none). It is lower than an id a client
   * holds only when the store lost its data (a restarted memory store, a Redis that came back empty).
   */
  lastId(conversationId: string): Promise<number>;
  /**
   * Registers a listener for events appended from now on. Resolves once the subscription
   * is live, so a `read` started afterwards cannot miss an event. Returns the unsubscribe.
   */
  subscribe(conversationId: string, listener: EventListener): Promise<() => void>;
  /**
   * Remembers who wrote message `messageId` (an operator's name and picture as the live event
   * showed them): the service's history does not name operators. Kept as long as the conversation
   * (its id counter) is, far beyond the events' retention; writing it again replaces it.
   */
  rememberAuthor(conversationId: string, messageId: string, author: Author): Promise<void>;
  /** The authors remembered for the conversation's messages, by message id. */
  authorsOf(conversationId: string): Promise<Map<string, Author>>;
  /** Resolves when the store is reachable; rejects otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Retention of each conversation's log and of dedup keys. */
export interface RetentionOptions {
  /** Events kept per conversation (oldest dropped first). */
  maxEvents: number;
  /** Events older than this are dropped, in milliseconds. */
  maxAgeMs: number;
  /** How long a dedup key is remembered, in milliseconds. */
  dedupTtlMs: number;
}
