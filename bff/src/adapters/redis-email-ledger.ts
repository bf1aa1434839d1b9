import type { EmailLedger, Presence, Recipient, SendClaim } from '../ports/email-ledger.js';
import { taggedKey, type RedisClient } from './redis-connection.js';
import { redisCall } from './redis-store.js';

/** KEYS: the conversation's hash. ARGV: now, interval ms, ttl ms. The send slot, taken or refused in one step. */
const CLAIM = `
local sent = tonumber(redis.call('HGET', KEYS[1], 'sentAt') or '')
if sent and tonumber(ARGV[1]) < sent + tonumber(ARGV[2]) then return sent + tonumber(ARGV[2]) end
redis.call('HSET', KEYS[1], 'sentAt', ARGV[1])
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return -1
`;

/** KEYS: the schedule. ARGV: now, limit. Due members, removed in the same step: each goes to one caller. */
const TAKE = `
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
if #due > 0 then redis.call('ZREM', KEYS[1], unpack(due)) end
return due
`;

/** KEYS: the conversation's hash, its streams hash. ARGV: stream id, at, ttl ms. */
const CLOSE = `
redis.call('HDEL', KEYS[2], ARGV[1])
local left = tonumber(redis.call('HGET', KEYS[1], 'leftAt') or '0')
if tonumber(ARGV[2]) > left then redis.call('HSET', KEYS[1], 'leftAt', ARGV[2]) end
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
`;

interface LedgerScripts {
  parleyEmailClaim(key: string, now: number, intervalMs: number, ttlMs: number): Promise<number>;
  parleyEmailTake(key: string, now: number, limit: number): Promise<string[]>;
  parleyEmailClose(key: string, streams: string, streamId: string, at: number, ttlMs: number): Promise<number>;
}

// Presence and sends may come before any note: a day, until a note sets the TTL.
const FIRST_TTL_MS = 86_400_000;
const FIELDS = ['email', 'pageUrl', 'locale', 'unsubscribed', 'mailedUpTo'] as const;

/**
 * The email ledger on Redis, shared by every instance. A conversation's keys carry its id as hash
 * tag, so on a Redis Cluster each script touches one slot; the schedule is one sorted set.
 */
export class RedisEmailLedger implements EmailLedger {
  private readonly client: RedisClient & LedgerScripts;

  constructor(
    client: RedisClient,
    private readonly prefix = 'parley:',
  ) {
    this.client = client as RedisClient & LedgerScripts;
    this.client.defineCommand('parleyEmailClaim', { numberOfKeys: 1, lua: CLAIM });
    this.client.defineCommand('parleyEmailTake', { numberOfKeys: 1, lua: TAKE });
    this.client.defineCommand('parleyEmailClose', { numberOfKeys: 2, lua: CLOSE });
  }

  async note(conversationId: string, patch: Recipient, ttlMs: number): Promise<void> {
    const fields = Object.entries(patch).filter(([, value]) => value !== undefined).flatMap(([key, value]) => [key, String(value)]);
    const key = this.key(conversationId);
    await redisCall(async () => {
      const pipeline = this.client.multi();
      if (fields.length > 0) pipeline.hset(key, ...fields);
      pipeline.pexpire(key, ttlMs);
      pipeline.pexpire(this.key(conversationId, 'streams'), ttlMs);
      await pipeline.exec();
    });
  }

  async recipient(conversationId: string): Promise<Recipient | undefined> {
    const hash = await redisCall(() => this.client.hgetall(this.key(conversationId)));
    const recipient: Recipient = {};
    for (const field of FIELDS) {
      const value = hash[field];
      if (value === undefined) continue;
      if (field === 'mailedUpTo') recipient.mailedUpTo = Number(value);
      else recipient[field] = value;
    }
    return Object.keys(recipient).length > 0 ? recipient : undefined;
  }

  async streamOpened(conversationId: string, streamId: string, until: number): Promise<void> {
    const key = this.key(conversationId, 'streams');
    await redisCall(async () => {
      await this.client.multi().hset(key, streamId, String(until)).pexpire(key, Math.max(FIRST_TTL_MS, until - Date.now())).exec();
    });
  }

  async streamClosed(conversationId: string, streamId: string, at: number): Promise<void> {
    await redisCall(() => this.client.parleyEmailClose(this.key(conversationId), this.key(conversationId, 'streams'), streamId, at, FIRST_TTL_MS));
  }

  async presence(conversationId: string, now: number): Promise<Presence> {
    const [streams, leftAt] = await redisCall(() => Promise.all([this.client.hgetall(this.key(conversationId, 'streams')), this.client.hget(this.key(conversationId), 'leftAt')]));
    const open = Object.values(streams).map(Number).filter((until) => until > now);
    return { ...(open.length > 0 && { openUntil: Math.max(...open) }), ...(leftAt !== null && { leftAt: Number(leftAt) }) };
  }

  async schedule(conversationId: string, at: number): Promise<void> {
    // LT: an earlier look stays; a new member is added.
    await redisCall(() => this.client.zadd(`${this.prefix}email-due`, 'LT', at, conversationId));
  }

  async takeDue(now: number, limit: number): Promise<string[]> {
    return redisCall(() => this.client.parleyEmailTake(`${this.prefix}email-due`, now, limit));
  }

  async claimSend(conversationId: string, now: number, intervalMs: number): Promise<SendClaim> {
    const retryAt = await redisCall(() => this.client.parleyEmailClaim(this.key(conversationId), now, intervalMs, FIRST_TTL_MS));
    return retryAt < 0 ? { granted: true } : { granted: false, retryAt };
  }

  private key(conversationId: string, ...rest: string[]): string {
    return taggedKey(this.prefix, 'email', conversationId, ...rest);
  }
}
