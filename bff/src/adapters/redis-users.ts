import type { RedisClient } from './redis-connection.js';
import type { ConversationState, UserConversation, UserDirectory } from '../ports/user-directory.js';
import { redisCall } from './redis-store.js';

/**
 * KEYS: the user's conversations hash, the user's active pointer. ARGV: conversation id, entry
 * JSON, retention ms, `active` or `inactive`. An inactive conversation clears the pointer only
 * while it still names that conversation, so a newer active one set meanwhile stays.
 */
const SAVE = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
if ARGV[4] == 'active' then
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
elseif redis.call('GET', KEYS[2]) == ARGV[1] then
  redis.call('DEL', KEYS[2])
end
return 1
`;

interface UserScripts {
  parleySaveUserConversation(list: string, active: string, conversationId: string, entry: string, retentionMs: number, mode: string): Promise<number>;
}

interface Entry {
  title: string;
  state: ConversationState;
  updatedAt: number;
}

/** Options of `RedisUserDirectory`. */
export interface RedisUserDirectoryOptions {
  /** Prepended to every key. Default `parley:`. */
  prefix?: string;
  /** How long a user's list and a conversation's owner outlive their last change. Default 365 days. */
  retentionMs?: number;
  now?: () => number;
}

/**
 * The user → conversations mapping on Redis, shared by every instance. A user's keys carry the
 * user id as hash tag (`user:{id}:…`), a conversation's owner key the conversation id, so on a
 * Redis Cluster each group lives in one slot and every multi-key step stays in one slot.
 */
export class RedisUserDirectory implements UserDirectory {
  private readonly prefix: string;
  private readonly retentionMs: number;
  private readonly now: () => number;
  private readonly client: RedisClient & UserScripts;

  constructor(client: RedisClient, options: RedisUserDirectoryOptions = {}) {
    this.client = client as RedisClient & UserScripts;
    this.client.defineCommand('parleySaveUserConversation', { numberOfKeys: 2, lua: SAVE });
    this.prefix = options.prefix ?? 'parley:';
    this.retentionMs = options.retentionMs ?? 365 * 86_400_000;
    this.now = options.now ?? Date.now;
  }

  async bind(userId: string, conversationId: string, title: string): Promise<boolean> {
    return redisCall(async () => {
      // Claimed first, on its own slot: a conversation can never end up in two users' lists.
      await this.client.set(this.ownerKey(conversationId), userId, 'PX', this.retentionMs, 'NX');
      if ((await this.client.get(this.ownerKey(conversationId))) !== userId) return false;
      const old = await this.entry(userId, conversationId);
      const entry: Entry = { title: old?.title ?? title, state: old?.state ?? 'open', updatedAt: this.now() };
      await this.save(userId, conversationId, entry, 'active');
      return true;
    });
  }

  async ownerOf(conversationId: string): Promise<string | undefined> {
    return redisCall(async () => (await this.client.get(this.ownerKey(conversationId))) ?? undefined);
  }

  async activeOf(userId: string): Promise<string | undefined> {
    return redisCall(async () => (await this.client.get(this.userKey(userId, 'active'))) ?? undefined);
  }

  async touch(userId: string, conversationId: string, state?: ConversationState): Promise<void> {
    return redisCall(async () => {
      const old = await this.entry(userId, conversationId);
      if (!old) return;
      const entry: Entry = { ...old, updatedAt: this.now(), ...(state ? { state } : {}) };
      await this.save(userId, conversationId, entry, entry.state === 'archived' ? 'inactive' : 'active');
    });
  }

  async list(userId: string): Promise<UserConversation[]> {
    const all = await redisCall(() => this.client.hgetall(this.userKey(userId, 'conversations')));
    return Object.entries(all)
      .map(([sessionId, json]) => ({ sessionId, entry: JSON.parse(json) as Entry }))
      .sort((a, b) => b.entry.updatedAt - a.entry.updatedAt)
      .map(({ sessionId, entry }) => ({ sessionId, title: entry.title, state: entry.state, updatedAt: new Date(entry.updatedAt).toISOString() }));
  }

  private async entry(userId: string, conversationId: string): Promise<Entry | undefined> {
    const json = await this.client.hget(this.userKey(userId, 'conversations'), conversationId);
    return json === null ? undefined : (JSON.parse(json) as Entry);
  }

  /** Writes the entry and moves the active pointer in one script on the user's slot; keeps the owner key alive. */
  private async save(userId: string, conversationId: string, entry: Entry, active: 'active' | 'inactive'): Promise<void> {
    const [list, activeKey] = [this.userKey(userId, 'conversations'), this.userKey(userId, 'active')];
    await this.client.parleySaveUserConversation(list, activeKey, conversationId, JSON.stringify(entry), this.retentionMs, active);
    await this.client.pexpire(this.ownerKey(conversationId), this.retentionMs);
  }

  // Ids are URI-encoded so that braces in them cannot move the hash tag.
  private userKey(userId: string, part: 'conversations' | 'active'): string {
    return `${this.prefix}user:{${encodeURIComponent(userId)}}:${part}`;
  }

  private ownerKey(conversationId: string): string {
    return `${this.prefix}conversation-owner:{${encodeURIComponent(conversationId)}}`;
  }
}
