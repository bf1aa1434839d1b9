import type { Author, StoredEvent, StreamEvent } from '../../../shared/types.js';
import { ScopedKeys } from '../lib/scoped-keys.js';
import { EventLog, storedEvent } from './event-log.js';
import type { AppendResult, EventListener, EventStore, RetentionOptions } from '../ports/event-store.js';

/**
 * One conversation's log: its events (it is their `EventLog`, ids implied by position: the `i`-th
 * kept has `lastId - size + 1 + i`) and its subscribers, in one object, so an append reads one
 * object of the conversation's, not three. A `StoredEvent` is made only when one is handed out, so
 * an event adds only its data to the heap (docs/benchmarks.md).
 */
class Log extends EventLog {
  lastId: number;
  /** Made at the first subscriber: most conversations a webhook reaches have none in this process. */
  listeners: Set<EventListener> | undefined = undefined;

  constructor(
    /** The conversation's id, as first given: the scope of its dedup keys (one string for them all). */
    readonly id: string,
    /** The id before the log's first: 0, or the log's start time (see `timeBasedIds`). */
    readonly firstId: number,
  ) {
    super();
    this.lastId = firstId;
  }
}

/** Options of a `MemoryEventStore` beyond retention. */
export interface MemoryStoreOptions {
  now?: () => number;
  sweepEveryMs?: number;
  /**
   * Number each conversation's log from its start time (ms × 100) instead of from 1. The server
   * sets it: a restarted BFF, or a log forgotten by the sweep, then gives out only ids above any
   * the previous log gave out (unless that log handed out more than 100,000 ids a second), so a
   * client's old `Last-Event-ID` never hides the new log's events from it.
   */
  timeBasedIds?: boolean;
  /** How long a conversation's remembered authors outlive their last write (default 30 days, at least `maxAgeMs`), as Redis keeps its id counter. */
  keepConversationMs?: number;
}

/** Authors remembered per conversation at most: a bound on memory, far above any conversation's operator messages. */
const MAX_AUTHORS = 10_000;
const DAY_MS = 86_400_000;

/** Ids per millisecond of a log's start time, when `timeBasedIds`: 15 digits until the year 2286. */
const IDS_PER_MS = 100;

/**
 * In-process event store: a bounded `EventLog` per conversation, dedup keys per conversation
 * bounded by age and count (`ScopedKeys`). Fan-out is synchronous. A sweep drops
 * conversations whose events have all expired, which nobody would read again.
 */
export class MemoryEventStore implements EventStore {
  private readonly logs = new Map<string, Log>();
  /** Dedup keys of stored events, until `dedupTtlMs` after they were stored. */
  private readonly seen: ScopedKeys;
  private readonly sweeper: ReturnType<typeof setInterval>;
  private readonly now: () => number;
  private readonly timeBasedIds: boolean;
  /** Who wrote which message, per conversation, until `expiresAt` (refreshed by every write). */
  private readonly authors = new Map<string, { byMessage: Map<string, Author>; expiresAt: number }>();
  private readonly keepConversationMs: number;

  constructor(
    private readonly retention: RetentionOptions,
    { now = Date.now, sweepEveryMs = 60_000, timeBasedIds = false, keepConversationMs = 30 * DAY_MS }: MemoryStoreOptions = {},
  ) {
    this.now = now;
    this.timeBasedIds = timeBasedIds;
    this.keepConversationMs = Math.max(keepConversationMs, retention.maxAgeMs);
    this.seen = new ScopedKeys(Math.max(10_000, retention.maxEvents * 100));
    this.sweeper = setInterval(() => this.sweep(), sweepEveryMs);
    this.sweeper.unref();
  }

  /**
   * Drops expired events and expired dedup keys everywhere, and forgets conversations left with
   * no event and no listener. Their numbering starts again (see `timeBasedIds`; from 1 without
   * it, which the event route tells from an old `Last-Event-ID` by `lastId`).
   */
  sweep(): void {
    const now = this.now();
    for (const [id, log] of this.logs) {
      this.trim(log, now);
      if (log.size === 0 && !log.listeners?.size) this.logs.delete(id);
    }
    this.seen.expire(now);
    for (const [id, kept] of this.authors) if (kept.expiresAt <= now) this.authors.delete(id);
  }

  async rememberAuthor(conversationId: string, messageId: string, author: Author): Promise<void> {
    let kept = this.authors.get(conversationId);
    if (!kept) this.authors.set(conversationId, (kept = { byMessage: new Map(), expiresAt: 0 }));
    kept.byMessage.delete(messageId); // re-inserted last: the oldest is dropped first
    kept.byMessage.set(messageId, author);
    if (kept.byMessage.size > MAX_AUTHORS) kept.byMessage.delete(kept.byMessage.keys().next().value!);
    kept.expiresAt = this.now() + this.keepConversationMs;
  }

  async authorsOf(conversationId: string): Promise<Map<string, Author>> {
    const kept = this.authors.get(conversationId);
    return kept && kept.expiresAt > this.now() ? new Map(kept.byMessage) : new Map();
  }

  async append(conversationId: string, event: StreamEvent, options?: { dedupKey?: string }): Promise<AppendResult> {
    return this.appendNow(conversationId, event, options);
  }

  /** `append` without the promise: the webhook's answer waits for no I/O here (`EventStore.appendNow`). */
  appendNow(conversationId: string, event: StreamEvent, options?: { dedupKey?: string }): AppendResult {
    const now = this.now();
    const log = this.log(conversationId);
    // Per conversation, as in Redis, where the key lives in the conversation's hash slot.
    const dedupKey = options?.dedupKey;
    if (dedupKey !== undefined && this.seen.has(log.id, dedupKey, now)) return { status: 'duplicate' };
    log.append(event.event, event.data, now);
    // By count only: the oldest event's time is the one cold read an append would make; by age, the
    // sweep and every read trim (a read never returns an expired event).
    while (log.size > this.retention.maxEvents) log.dropOldest();
    if (dedupKey !== undefined) this.seen.add(log.id, dedupKey, now + this.retention.dedupTtlMs, now);
    const stored = storedEvent(event.event, event.data, ++log.lastId, now);
    // A copy, as a listener may unsubscribe while called; none to copy for most conversations.
    if (log.listeners !== undefined && log.listeners.size > 0) this.deliver(log.listeners, stored);
    return { status: 'stored', event: stored };
  }

  private deliver(listeners: Set<EventListener>, stored: StoredEvent): void {
    for (const listener of [...listeners]) {
      try {
        listener(stored);
      } catch {
        // A broken subscriber must not stop delivery to the others.
      }
    }
  }

  async read(conversationId: string, afterId: number, limit: number): Promise<StoredEvent[]> {
    const log = this.logs.get(conversationId);
    if (!log) return [];
    this.trim(log, this.now());
    // Ids are dense and increasing, so the first candidate's position can be computed.
    const firstId = log.lastId - log.size + 1;
    const start = Math.max(0, afterId - firstId + 1);
    return log.slice(start, limit, firstId + start);
  }

  async lastId(conversationId: string): Promise<number> {
    const log = this.logs.get(conversationId);
    return log && log.lastId > log.firstId ? log.lastId : 0;
  }

  async subscribe(conversationId: string, listener: EventListener): Promise<() => void> {
    const log = this.log(conversationId);
    const listeners = (log.listeners ??= new Set());
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && log.size === 0 && log.lastId === log.firstId) this.logs.delete(conversationId);
    };
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    for (const log of this.logs.values()) log.listeners?.clear();
  }

  private log(conversationId: string): Log {
    let log = this.logs.get(conversationId);
    if (!log) {
      const firstId = this.timeBasedIds ? this.now() * IDS_PER_MS : 0;
      log = new Log(conversationId, firstId);
      this.logs.set(conversationId, log);
    }
    return log;
  }

  private trim(log: Log, now: number): void {
    const { maxEvents, maxAgeMs } = this.retention;
    while (log.size > maxEvents) log.dropOldest();
    while (log.oldestTime() <= now - maxAgeMs) log.dropOldest();
  }
}
