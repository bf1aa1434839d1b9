import { randomUUID } from 'node:crypto';
import type { Author, StoredEvent, StreamEvent } from '../../../shared/types.js';
import { StoreUnavailableError } from '../errors.js';
import type { AppendResult, EventListener, EventStore, RetentionOptions } from '../ports/event-store.js';
import { taggedKey, type RedisClient, type RedisConnections } from './redis-connection.js';
import { RedisFanout, type LogPosition } from './redis-fanout.js';

/** Options of `RedisEventStore`; `connectRedis` opens the connections. */
export interface RedisEventStoreOptions {
  /** Commands, the per-conversation channels and how to publish on them; closed with the store. */
  connections: RedisConnections;
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
 * KEYS: log stream, id counter, epoch, [dedup key], all in the conversation's slot. ARGV: event
 * JSON, maxEvents, maxAgeMs, sequenceTtlMs, dedupTtlMs, channel, PUBLISH or SPUBLISH. One script,
 * so "seen before?", the id, the entry, the dedup key and the publish happen together or not at
 * all; the dedup key is written only after the entry.
 */
const APPEND = `${TRIM_AGE}
local log, seqKey, epoch, dedup = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
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
redis.call('PEXPIRE', epoch, ARGV[4])
local stored = string.sub(ARGV[1], 1, -2) .. ',"id":' .. seq .. ',"ts":' .. now .. '}'
redis.call('XADD', log, 'MAXLEN', ARGV[2], seq .. '-0', 't', now, 'd', stored)
redis.call('PEXPIRE', log, ARGV[3])
if dedup then redis.call('SET', dedup, seq, 'PX', ARGV[5]) end
redis.call(ARGV[7], ARGV[6], stored)
return stored
`;

/**
 * KEYS: log stream, id counter, epoch. ARGV: afterId, limit, maxAgeMs, a fresh epoch value,
 * sequenceTtlMs. Returns the epoch, the counter, then the events' JSON. Trims by age first, and
 * filters too in case the clock stepped back. The epoch names the conversation's data: made on
 * the first read (kept alive by appends, so it outlives the counter), it is new after the
 * conversation's Redis node lost its data.
 */
const READ = `${TRIM_AGE}
local cutoff = nowMs() - tonumber(ARGV[3])
trimAge(KEYS[1], cutoff)
redis.call('SET', KEYS[3], ARGV[4], 'NX', 'PX', ARGV[5])
local out = { redis.call('GET', KEYS[3]), redis.call('GET', KEYS[2]) or '0' }
if tonumber(ARGV[2]) == 0 then return out end
local start = ARGV[1] == '0' and '-' or '(' .. ARGV[1] .. '-0'
local entries = redis.call('XRANGE', KEYS[1], start, '+', 'COUNT', ARGV[2])
for i = 1, #entries do
  if tonumber(entries[i][2][2]) > cutoff then out[#out + 1] = entries[i][2][4] end
end
return out
`;

interface StoreScripts {
  parleyAppend(numKeys: number, ...keysAndArgs: (string | number)[]): Promise<string | null>;
  parleyRead(log: string, seq: string, epoch: string, afterId: number, limit: number, maxAgeMs: number, fresh: string, sequenceTtlMs: number): Promise<string[]>;
}

const DAY_MS = 86_400_000;

/**
 * Event store on Redis: each conversation is a Stream whose entry ids are `${seq}-0`, `seq` an
 * INCR counter, so the SSE id maps straight onto XRANGE. Bounded by MAXLEN (exact) and by age
 * (head trimming plus a key TTL refreshed on append). Fan-out is PUBLISH (SPUBLISH on a cluster)
 * from the append script. A conversation's keys share its hash slot (`taggedKey`); dedup keys are
 * per conversation, so the check runs in the append script: a webhook names its conversation, and
 * every delivery of one event names the same one.
 */
export class RedisEventStore implements EventStore {
  private readonly client: RedisClient & StoreScripts;
  private readonly connections: RedisConnections;
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
    this.connections = options.connections;
    this.client = options.connections.client as RedisClient & StoreScripts;
    this.client.defineCommand('parleyAppend', { lua: APPEND });
    this.client.defineCommand('parleyRead', { numberOfKeys: 3, lua: READ });
    this.fanout = new RedisFanout({
      channels: options.connections.channels,
      channel: (conversationId) => taggedKey(this.prefix, 'ev', conversationId),
      catchUp: (conversationId, afterId, limit) => this.readWithCounter(conversationId, afterId, limit ?? this.retention.maxEvents),
    });
  }

  async append(conversationId: string, event: StreamEvent, options?: { dedupKey?: string }): Promise<AppendResult> {
    const keys = this.keys(conversationId);
    if (options?.dedupKey !== undefined) keys.push(taggedKey(this.prefix, 'dedup', conversationId, options.dedupKey));
    const { maxEvents, maxAgeMs, dedupTtlMs } = this.retention;
    const stored = await redisCall(() => this.client.parleyAppend(keys.length, ...keys, JSON.stringify(event), maxEvents, maxAgeMs, this.sequenceTtlMs, dedupTtlMs, this.fanout.channel(conversationId), this.connections.publishCommand));
    return stored === null ? { status: 'duplicate' } : { status: 'stored', event: JSON.parse(stored) as StoredEvent };
  }

  async read(conversationId: string, afterId: number, limit: number): Promise<StoredEvent[]> {
    return (await this.readWithCounter(conversationId, afterId, limit)).events;
  }

  /** A hash of message id → author JSON in the conversation's slot, kept as long as its id counter. */
  async rememberAuthor(conversationId: string, messageId: string, author: Author): Promise<void> {
    const key = taggedKey(this.prefix, 'authors', conversationId);
    await redisCall(() => this.client.multi().hset(key, messageId, JSON.stringify(author)).pexpire(key, this.sequenceTtlMs).exec());
  }

  async authorsOf(conversationId: string): Promise<Map<string, Author>> {
    const all = await redisCall(() => this.client.hgetall(taggedKey(this.prefix, 'authors', conversationId)));
    return new Map(Object.entries(all).map(([id, json]) => [id, JSON.parse(json) as Author]));
  }

  async lastId(conversationId: string): Promise<number> {
    return redisCall(async () => Number(await this.client.get(taggedKey(this.prefix, 'seq', conversationId))));
  }

  async subscribe(conversationId: string, listener: EventListener): Promise<() => void> {
    return redisCall(() => this.fanout.subscribe(conversationId, listener));
  }

  async ping(): Promise<void> {
    await redisCall(() => this.connections.ping());
  }

  /** Quits every connection (also the command connection the limiters share). */
  async close(): Promise<void> {
    this.fanout.clear();
    await this.connections.close();
  }

  /**
   * Events after `afterId` plus the conversation's epoch and id counter (the fan-out detects a
   * Redis that lost the conversation's data with them). `limit` 0 reads only epoch and counter.
   */
  private async readWithCounter(conversationId: string, afterId: number, limit: number): Promise<LogPosition & { events: StoredEvent[] }> {
    const after = Math.max(0, Math.floor(afterId));
    const count = Math.max(0, Math.floor(limit));
    const reply = await redisCall(() => this.client.parleyRead(...this.keys(conversationId), after, count, this.retention.maxAgeMs, randomUUID(), this.sequenceTtlMs));
    const [epoch, counter, ...rows] = reply;
    return { epoch: epoch!, counter: Number(counter), events: rows.map((row) => JSON.parse(row) as StoredEvent) };
  }

  /** Log, id counter and epoch of a conversation: one hash slot (see `taggedKey`). */
  private keys(conversationId: string): [string, string, string] {
    return (['log', 'seq', 'epoch'] as const).map((kind) => taggedKey(this.prefix, kind, conversationId)) as [string, string, string];
  }
}

/**
 * Wraps any ioredis failure (connection, timeout, reply error) in the port's error. The message
 * reaches browsers, so it stays generic; the cause (with the Redis detail) goes to the logs.
 */
function redisFailure(err: unknown): StoreUnavailableError {
  if (err instanceof StoreUnavailableError) return err;
  return new StoreUnavailableError(undefined, { cause: err });
}

/** Runs `call` (one Redis command, or a few in a row) with any failure thrown as `redisFailure`'s. */
export async function redisCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw redisFailure(err);
  }
}

