import { ExpiringKeys } from '../lib/expiring-keys.js';
import type { OnceStore } from '../ports/once-store.js';
import type { RateLimiter, RateLimitResult } from '../ports/rate-limiter.js';

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

/** Claim-once keys in process memory, forgotten after their TTL. */
export class MemoryOnceStore implements OnceStore {
  // Bounded only by expiry: a claim forgotten early would let a refresh token be used twice.
  private readonly keys = new ExpiringKeys(Number.MAX_SAFE_INTEGER);

  constructor(private readonly now: () => number = Date.now) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    if (this.keys.has(key, now)) return false;
    this.keys.add(key, now + ttlMs, now);
    return true;
  }

  async has(key: string): Promise<boolean> {
    return this.keys.has(key, this.now());
  }

  async mark(key: string, ttlMs: number): Promise<void> {
    const now = this.now();
    this.keys.add(key, now + ttlMs, now);
  }
}
