import type { RedisClient } from './redis-connection.js';
import type { OnceStore } from '../ports/once-store.js';
import type { RateLimiter, RateLimitResult } from '../ports/rate-limiter.js';
import { redisFailure } from './redis-store.js';

/**
 * KEYS: the window counter. ARGV: windowMs. Returns {count, ms left}. The window starts with its
 * first hit (no clock shared between instances needed); a counter left without TTL is repaired.
 */
const HIT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { n, ttl }
`;

interface LimiterScripts {
  parleyHit(key: string, windowMs: number): Promise<[number, number]>;
}

/** Fixed-window rate limiter on Redis: INCR and PEXPIRE in one script, shared by every instance. */
export class RedisRateLimiter implements RateLimiter {
  private readonly client: RedisClient & LimiterScripts;

  constructor(
    client: RedisClient,
    private readonly prefix = 'parley:',
  ) {
    this.client = client as RedisClient & LimiterScripts;
    this.client.defineCommand('parleyHit', { numberOfKeys: 1, lua: HIT });
  }

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const window = Math.max(1, Math.ceil(windowMs));
    let count: number;
    let leftMs: number;
    try {
      [count, leftMs] = await this.client.parleyHit(`${this.prefix}rate:${window}:${key}`, window);
    } catch (err) {
      throw redisFailure(err);
    }
    if (count > limit) return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(leftMs / 1000)) };
    return { allowed: true, remaining: limit - count };
  }
}

/** Claim-once keys on Redis (`SET NX PX`), so a refresh token is single-use across instances. */
export class RedisOnceStore implements OnceStore {
  constructor(
    private readonly client: RedisClient,
    private readonly prefix = 'parley:',
  ) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    try {
      const reply = await this.client.set(`${this.prefix}once:${key}`, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX');
      return reply === 'OK';
    } catch (err) {
      throw redisFailure(err);
    }
  }

  async mark(key: string, ttlMs: number): Promise<void> {
    try {
      await this.client.set(`${this.prefix}once:${key}`, '1', 'PX', Math.max(1, Math.ceil(ttlMs)));
    } catch (err) {
      throw redisFailure(err);
    }
  }

  async has(key: string): Promise<boolean> {
    try {
      return (await this.client.exists(`${this.prefix}once:${key}`)) === 1;
    } catch (err) {
      throw redisFailure(err);
    }
  }
}
