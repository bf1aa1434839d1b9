import { ExpiringKeys } from '../lib/expiring-keys.js';
import type { OnceStore } from '../ports/once-store.js';
import type { RateLimiter, RateLimitResult } from '../ports/rate-limiter.js';
import type { StartRecord, StartRecords } from '../ports/start-records.js';

/** Fixed-window rate limiter in process memory; stale windows are swept as keys are touched. */
export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  // Looked up on each call (not `= Date.now`), so a test's fake clock reaches a running server.
  constructor(private readonly now: () => number = () => Date.now()) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = this.now();
    const start = now - (now % windowMs);
    const mapKey = `${windowMs}:${key}`;
    let w = this.windows.get(mapKey);
    if (!w || w.start !== start) {
      if (this.windows.size > 100_000) this.sweep(start, windowMs);
      w = { start, count: 0 };
      this.windows.set(mapKey, w);
    }
    w.count++;
    if (w.count > limit) return { allowed: false, retryAfterSec: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
    return { allowed: true, remaining: limit - w.count };
  }

  private sweep(currentStart: number, windowMs: number): void {
    for (const [k, w] of this.windows) if (w.start + windowMs <= currentStart) this.windows.delete(k);
  }
}

/**
 * Claim-once keys in process memory, forgotten after their TTL. Keys expire from the front of a
 * queue, so a key can wait behind one added before it that lives longer: one queue for all held a
 * message's one-day key until the week-long refresh-token key before it expired. Keys whose TTLs
 * are within a factor of two share a queue, so a key is held at most twice its TTL, with a few
 * dozen queues at most whatever TTLs come (a ticket's depends on its token's expiry).
 */
export class MemoryOnceStore implements OnceStore {
  // Bounded only by expiry: a claim forgotten early would let a refresh token be used twice.
  private readonly queues = new Map<number, ExpiringKeys>();

  constructor(private readonly now: () => number = Date.now) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    if (this.holds(key, now)) return false;
    this.add(key, ttlMs, now);
    return true;
  }

  async has(key: string): Promise<boolean> {
    return this.holds(key, this.now());
  }

  async mark(key: string, ttlMs: number): Promise<void> {
    this.add(key, ttlMs, this.now());
  }

  /** Keys held now, expired ones dropped first (for tests and metrics). */
  get size(): number {
    const now = this.now();
    let size = 0;
    for (const keys of this.queues.values()) {
      keys.expire(now);
      size += keys.size;
    }
    return size;
  }

  private holds(key: string, now: number): boolean {
    for (const keys of this.queues.values()) if (keys.has(key, now)) return true;
    return false;
  }

  private add(key: string, ttlMs: number, now: number): void {
    const tier = Math.ceil(Math.log2(Math.max(1, ttlMs)));
    let keys = this.queues.get(tier);
    if (!keys) this.queues.set(tier, (keys = new ExpiringKeys(Number.MAX_SAFE_INTEGER)));
    keys.add(key, now + ttlMs, now);
    for (const other of this.queues.values()) {
      if (other === keys) continue;
      // A key marked again with another TTL (a stream ticket's grace) lives by the new one only.
      other.delete(key);
      // A queue whose kind of key stopped coming would otherwise keep its expired keys.
      other.expire(now);
    }
  }
}

/**
 * Start records in process memory: each key with its value ('' while running) and expiry, in the
 * order they were written. Expired ones at the front go as records are written; at most
 * `maxRecords` are kept, the oldest dropped first (its start could then be made again).
 */
export class MemoryStartRecords implements StartRecords {
  // value '' while the start runs; `ended` outranks any value.
  private readonly records = new Map<string, { value: string; until: number; ended?: true }>();

  constructor(
    private readonly maxRecords = 100_000,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async begin(key: string, runningMs: number): Promise<StartRecord> {
    const now = this.now();
    const held = this.records.get(key);
    if (held && held.until > now) {
      if (held.ended) return { status: 'ended' };
      return held.value === '' ? { status: 'running' } : { status: 'done', value: held.value };
    }
    this.write(key, '', now + runningMs, now);
    return { status: 'claimed' };
  }

  async finish(key: string, value: string, ttlMs: number): Promise<void> {
    const now = this.now();
    const held = this.records.get(key);
    if (held?.ended && held.until > now) return;
    this.write(key, value, now + ttlMs, now);
  }

  async abandon(key: string): Promise<void> {
    const held = this.records.get(key);
    if (held?.value === '' && !held.ended) this.records.delete(key);
  }

  async end(key: string, ttlMs: number): Promise<void> {
    const now = this.now();
    this.write(key, '', now + ttlMs, now, true);
  }

  private write(key: string, value: string, until: number, now: number, ended?: true): void {
    this.records.delete(key); // to the back: the order is the order of writing
    this.records.set(key, ended ? { value, until, ended } : { value, until });
    for (const [oldest, record] of this.records) {
      if (record.until > now && this.records.size <= this.maxRecords) break;
      this.records.delete(oldest);
    }
  }
}
