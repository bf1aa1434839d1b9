import type { RedisClient } from './redis-connection.js';
import type { OnceStore } from '../ports/once-store.js';
import type { RateLimiter, RateLimitResult } from '../ports/rate-limiter.js';
import type { StartRecord, StartRecords } from '../ports/start-records.js';
import { redisCall } from './redis-store.js';

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
    const [count, leftMs] = await redisCall(() => this.client.parleyHit(`${this.prefix}rate:${window}:${key}`, window));
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
    return redisCall(async () => {
      const reply = await this.client.set(`${this.prefix}once:${key}`, '1', 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX');
      return reply === 'OK';
    });
  }

  async mark(key: string, ttlMs: number): Promise<void> {
    await redisCall(() => this.client.set(`${this.prefix}once:${key}`, '1', 'PX', Math.max(1, Math.ceil(ttlMs))));
  }

  async has(key: string): Promise<boolean> {
    return redisCall(async () => (await this.client.exists(`${this.prefix}once:${key}`)) === 1);
  }
}

/** KEYS: the record. ARGV: runningMs. Claims the record (value '', returns {1}) or returns {0, what it holds}, in one step. */
const BEGIN = `
if redis.call('SET', KEYS[1], '', 'NX', 'PX', ARGV[1]) then return {1} end
return {0, redis.call('GET', KEYS[1])}
`;

/** KEYS: the record. Deletes it only while its start runs (a finished or ended one stays). */
const ABANDON = `
if redis.call('GET', KEYS[1]) == '' then redis.call('DEL', KEYS[1]) end
return 0
`;

/**
 * What an ended record holds: never a start's value (those are conversation ids and words, no NUL),
 * so one key per record still does, and a Redis Cluster places each anywhere.
 */
const ENDED = '\0ended';

/** KEYS: the record. ARGV: value, ttlMs, the ended mark. Writes the value unless the record was ended. */
const FINISH = `
if redis.call('GET', KEYS[1]) == ARGV[3] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`;

interface StartScripts {
  parleyStartBegin(key: string, runningMs: number): Promise<[1] | [0, string]>;
  parleyStartAbandon(key: string): Promise<number>;
  parleyStartFinish(key: string, value: string, ttlMs: number, ended: string): Promise<number>;
}

/**
 * Start records on Redis, one key each (so a Redis Cluster places them anywhere): '' while the
 * start runs, then its value. `begin` is one script, so two instances never both claim a key.
 */
export class RedisStartRecords implements StartRecords {
  private readonly client: RedisClient & StartScripts;

  constructor(
    client: RedisClient,
    private readonly prefix = 'parley:',
  ) {
    this.client = client as RedisClient & StartScripts;
    this.client.defineCommand('parleyStartBegin', { numberOfKeys: 1, lua: BEGIN });
    this.client.defineCommand('parleyStartAbandon', { numberOfKeys: 1, lua: ABANDON });
    this.client.defineCommand('parleyStartFinish', { numberOfKeys: 1, lua: FINISH });
  }

  async begin(key: string, runningMs: number): Promise<StartRecord> {
    const reply = await redisCall(() => this.client.parleyStartBegin(this.key(key), Math.max(1, Math.ceil(runningMs))));
    if (reply[0] === 1) return { status: 'claimed' };
    if (reply[1] === ENDED) return { status: 'ended' };
    return reply[1] === '' ? { status: 'running' } : { status: 'done', value: reply[1] };
  }

  async finish(key: string, value: string, ttlMs: number): Promise<void> {
    await redisCall(() => this.client.parleyStartFinish(this.key(key), value, Math.max(1, Math.ceil(ttlMs)), ENDED));
  }

  async end(key: string, ttlMs: number): Promise<void> {
    await redisCall(() => this.client.set(this.key(key), ENDED, 'PX', Math.max(1, Math.ceil(ttlMs))));
  }

  async abandon(key: string): Promise<void> {
    await redisCall(() => this.client.parleyStartAbandon(this.key(key)));
  }

  private key(key: string): string {
    return `${this.prefix}start:${key}`;
  }
}
