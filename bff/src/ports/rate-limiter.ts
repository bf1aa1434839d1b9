/** Outcome of one counted hit. `retryAfterSec` is set when refused. */
export type RateLimitResult = { allowed: true; remaining: number } | { allowed: false; retryAfterSec: number };

/** Fixed-window counter shared by every instance using the same backing store. */
export interface RateLimiter {
  /** Counts one hit on `key`; refused once more than `limit` hits fall in the current window. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
}
