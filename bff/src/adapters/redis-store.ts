import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { StoredEvent, StreamEvent } from '../../../shared/types.js';
import { StoreUnavailableError } from '../errors.js';
import type { AppendResult, EventListener, EventStore, RetentionOptions } from '../ports/event-store.js';
import { RedisFanout } from './redis-fanout.js';

/** Options of `RedisEventStore`; `createRedisAdapters` builds the two connections. */
export interface RedisEventStoreOptions {
  /** Connection for commands and scripts (may be shared with the limiters). */
  client: Redis;
  /** Dedicated connection for SUBSCRIBE: a connection in subscriber mode can do nothing else. */
  subscriber: Redis;
  retention: RetentionOptions;
  /** Prepended to every key and channel, so several deployments can share one Redis. Default `parley:`. */
  prefix?: string;
  /**
   * How long a conversation's id counter outlives its last append. It must outlive the log by far:
   * a counter that restarts at 1 would hide new events from a client still holding an old
   * `Last-Event-ID`. Default: 30 days, at least `maxAgeMs`.
   */
  sequenceTtlMs?: number;
}

/**
 * Deletes entries of stream `key` whose `t` (first field) is not after `cutoff`. Timestamps come
 * from Redis' own clock in append order, so expired entries form a prefix: the usual cost is one
 * look at the head, and every entry is deleted once.
 */
const TRIM_AGE = `
local function trimAge(key, cutoff)
  local batch = 1
  while true do
    local head = redis.call('XRANGE', key, '-', '+', 'COUNT', batch)
    if #head == 0 then return end
    for i = 1, #head do
      if tonumber(head[i][2][2]) > cutoff then
        if i > 1 then redis.call('XTRIM', key, 'MINID', head[i][1]) end
        return
      end
    end
    local last = tonumber(string.match(head[#head][1], '^%d+'))
    redis.call('XTRIM', key, 'MINID', (last + 1) .. '-0')
    batch = 100
  end
end
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
`;

/**
 * KEYS: log stream, id counter, [dedup key]. ARGV: event JSON, maxEvents, maxAgeMs, sequenceTtlMs,
 * dedupTtlMs, channel. One script, so "seen before?", the id, the entry, the dedup key and the
 * PUBLISH happen together or not at all; the dedup key is written only after the entry.
 */
const APPEND = `${TRIM_AGE}
local log, seqKey, dedup = KEYS[1], KEYS[2], KEYS[3]
if dedup and redis.call('EXISTS', dedup) == 1 then return false end
local now = nowMs()
trimAge(log, now - tonumber(ARGV[3]))
if redis.call('EXISTS', seqKey) == 0 and redis.call('EXISTS', log) == 1 then
  -- The counter was lost (evicted) while the log lives: continue after the log's last id.
  local info = redis.call('XINFO', 'STREAM', log)
  for i = 1, #info, 2 do
    if info[i] == 'last-generated-id' then redis.call('SET', seqKey, string.match(info[i + 1], '^%d+')) end
  end
end
local seq = redis.call('INCR', seqKey)
redis.call('PEXPIRE', seqKey, ARGV[4])
local stored = string.sub(ARGV[1], 1, -2) .. ',"id":' .. seq .. ',"ts":' .. now .. '}'
redis.call('XADD', log, 'MAXLEN', ARGV[2], seq .. '-0', 't', now, 'd', stored)
redis.call('PEXPIRE', log, ARGV[3])
if dedup then redis.call('SET', dedup, seq, 'PX', ARGV[5]) end
redis.call('PUBLISH', ARGV[6], stored)
return stored
`;

/**
 * KEYS: log stream, id counter. ARGV: afterId, limit, maxAgeMs. Returns the counter, then the
 * events' JSON. Trims by age first, and filters too in case the clock stepped back.
 */
const READ = `${TRIM_AGE}
local cutoff = nowMs() - tonumber(ARGV[3])
trimAge(KEYS[1], cutoff)
local out = { redis.call('GET', KEYS[2]) or '0' }
local start = ARGV[1] == '0' and '-' or '(' .. ARGV[1] .. '-0'
local entries = redis.call('XRANGE', KEYS[1], start, '+', 'COUNT', ARGV[2])
for i = 1, #entries do
  if tonumber(entries[i][2][2]) > cutoff then out[#out + 1] = entries[i][2][4] end
end
return out
`;

/** KEYS: epoch key. ARGV: a fresh random value. The key is made once per data set, then read. */
const EPOCH = `
redis.call('SET', KEYS[1], ARGV[1], 'NX')
return redis.call('GET', KEYS[1])
`;

interface StoreScripts {
  parleyAppend(numKeys: number, ...keysAndArgs: (string | number)[]): Promise<string | null>;
  parleyRead(log: string, seq: string, afterId: number, limit: number, maxAgeMs: number): Promise<string[]>;
  parleyEpoch(key: string, fresh: string): Promise<string>;
}

const DAY_MS = 86_400_000;

/**
 * Event store on Redis: each conversation is a Stream whose entry ids are `${seq}-0`, `seq` an
 * INCR counter, so the SSE id maps straight onto XRANGE. Bounded by MAXLEN (exact) and by age
 * (head trimming plus a key TTL refreshed on append). Fan-out is PUBLISH from the append script.
 */
export class RedisEventStore implements EventStore {
  private readonly client: Redis & StoreScripts;
  private readonly subscriber: Redis;
  private readonly retention: RetentionOptions;
  private readonly prefix: string;
  private readonly sequenceTtlMs: number;
  private readonly fanout: RedisFanout;

  constructor(options: RedisEventStoreOptions) {
    const { maxEvents, maxAgeMs, dedupTtlMs } = options.retention;
    if (!Number.isInteger(maxEvents) || maxEvents < 1) throw new RangeError('retention.maxEvents must be a positive integer');
    if (!(maxAgeMs > 0) || !(dedupTtlMs > 0)) throw new RangeError('retention.maxAgeMs and dedupTtlMs must be positive');
    this.retention = { maxEvents, maxAgeMs: Math.ceil(maxAgeMs), dedupTtlMs: Math.ceil(dedupTtlMs) };
    this.prefix = options.prefix ?? 'parley:';
    this.sequenceTtlMs = Math.ceil(Math.max(options.sequenceTtlMs ?? 30 * DAY_MS, maxAgeMs));
    this.client = options.client as Redis & StoreScripts;
    this.subscriber = options.subscriber;
    this.client.defineCommand('parleyAppend', { lua: APPEND });
    this.client.defineCommand('parleyRead', { numberOfKeys: 2, lua: READ });
    this.client.defineCommand('parleyEpoch', { numberOfKeys: 1, lua: EPOCH });
    this.fanout = new RedisFanout({
      subscriber: this.subscriber,
      channelPrefix: `${this.prefix}ev:`,
      epoch: () => this.client.parleyEpoch(`${this.prefix}epoch`, randomUUID()),
      lastId: (conversationId) => this.lastId(conversationId),
      catchUp: (conversationId, afterId) => this.readWithCounter(conversationId, afterId, this.retention.maxEvents),
    });
  }

  async append(conversationId: string, event: StreamEvent, options?: { dedupKey?: string }): Promise<AppendResult> {
    const keys = [this.logKey(conversationId), this.seqKey(conversationId)];
    if (options?.dedupKey !== undefined) keys.push(`${this.prefix}dedup:${options.dedupKey}`);
    const { maxEvents, maxAgeMs, dedupTtlMs } = this.retention;
    let stored: string | null;
    try {
      stored = await this.client.parleyAppend(keys.length, ...keys, JSON.stringify(event), maxEvents, maxAgeMs, this.sequenceTtlMs, dedupTtlMs, this.fanout.channel(conversationId));
    } catch (err) {
      throw redisFailure(err);
    }
    return stored === null ? { status: 'duplicate' } : { status: 'stored', event: JSON.parse(stored) as StoredEvent };
  }

  async read(conversationId: string, afterId: number, limit: number): Promise<StoredEvent[]> {
    return (await this.readWithCounter(conversationId, afterId, limit)).events;
  }

  async lastId(conversationId: string): Promise<number> {
    try {
      return Number(await this.client.get(this.seqKey(conversationId)));
    } catch (err) {
      throw redisFailure(err);
    }
  }

  async subscribe(conversationId: string, listener: EventListener): Promise<() => void> {
    try {
      return await this.fanout.subscribe(conversationId, listener);
    } catch (err) {
      throw redisFailure(err);
    }
  }

  async ping(): Promise<void> {
    // Fan-out is part of the store: with the subscriber down, live streams would go quiet.
    if (this.subscriber.status !== 'ready') throw redisFailure(new Error(`Redis subscriber connection is ${this.subscriber.status}`));
    try {
      await this.client.ping();
    } catch (err) {
      throw redisFailure(err);
    }
  }

  /** Quits both connections (also the command connection the limiters share). */
  async close(): Promise<void> {
    this.fanout.clear();
    await Promise.all([quit(this.client), quit(this.subscriber)]);
  }

  /** Events after `afterId` plus the conversation's id counter (the fan-out detects a reset Redis with it). */
  private async readWithCounter(conversationId: string, afterId: number, limit: number): Promise<{ counter: number; events: StoredEvent[] }> {
    const after = Math.max(0, Math.floor(afterId));
    const count = Math.floor(limit);
    if (!(count > 0)) return { counter: 0, events: [] };
    let reply: string[];
    try {
      reply = await this.client.parleyRead(this.logKey(conversationId), this.seqKey(conversationId), after, count, this.retention.maxAgeMs);
    } catch (err) {
      throw redisFailure(err);
    }
    const [counter, ...rows] = reply;
    return { counter: Number(counter), events: rows.map((row) => JSON.parse(row) as StoredEvent) };
  }

  private logKey(conversationId: string): string {
    return `${this.prefix}log:${conversationId}`;
  }

  private seqKey(conversationId: string): string {
    return `${this.prefix}seq:${conversationId}`;
  }
}

/**
 * Wraps any ioredis failure (connection, timeout, reply error) in the port's error. The message
 * reaches browsers, so it stays generic; the cause (with the Redis detail) goes to the logs.
 */
export function redisFailure(err: unknown): StoreUnavailableError {
  if (err instanceof StoreUnavailableError) return err;
  return new StoreUnavailableError(undefined, { cause: err });
}

async function quit(connection: Redis): Promise<void> {
  if (connection.status === 'end') return;
  try {
    await connection.quit();
  } catch {
    // Not connected right now (the offline queue is off): drop the socket and stop reconnecting.
    connection.disconnect();
  }
}
