import type { RetentionOptions } from '../ports/event-store.js';
import { connectRedis, type RedisConnectionOptions, type RedisTarget } from './redis-connection.js';
import { RedisOnceStore, RedisRateLimiter, RedisStartRecords } from './redis-limits.js';
import { RedisSignalBus } from './redis-signals.js';
import { RedisEmailLedger } from './redis-email-ledger.js';
import { RedisEventStore } from './redis-store.js';
import { RedisUserDirectory } from './redis-users.js';

export { taggedKey, type RedisClient, type RedisTarget } from './redis-connection.js';

/** The Redis-backed adapters of one BFF instance. */
export interface RedisAdapters {
  store: RedisEventStore;
  rateLimiter: RedisRateLimiter;
  onceStore: RedisOnceStore;
  starts: RedisStartRecords;
  users: RedisUserDirectory;
  /** Recipients, presence, the schedule and send claims of emails to visitors. */
  emailLedger: RedisEmailLedger;
  /** Notices to every instance, on classic pub/sub. */
  signals: RedisSignalBus;
  /** Quits every connection. */
  close(): Promise<void>;
}

/** Options of `createRedisAdapters`. */
export interface RedisAdapterOptions extends RedisConnectionOptions {
  /** Prepended to every key and channel (no braces in it). Default `parley:`. */
  prefix?: string;
  /** See `RedisEventStoreOptions.sequenceTtlMs`. */
  sequenceTtlMs?: number;
}

/**
 * Connects to `target` and builds the store, limiters, user directory and signals. Rejects with
 * `StoreUnavailableError` when Redis cannot be reached, so a misconfigured instance fails at start-up.
 */
export async function createRedisAdapters(target: RedisTarget | string, retention: RetentionOptions, options: RedisAdapterOptions = {}): Promise<RedisAdapters> {
  const prefix = options.prefix ?? 'parley:';
  const connections = await connectRedis(typeof target === 'string' ? { url: target } : target, options);
  const { client, subscriber } = connections;
  const store = new RedisEventStore({ connections, retention, prefix, sequenceTtlMs: options.sequenceTtlMs });
  return {
    store,
    rateLimiter: new RedisRateLimiter(client, prefix),
    onceStore: new RedisOnceStore(client, prefix),
    starts: new RedisStartRecords(client, prefix),
    users: new RedisUserDirectory(client, { prefix }),
    emailLedger: new RedisEmailLedger(client, prefix),
    signals: new RedisSignalBus(client, subscriber, prefix),
    close: () => store.close(),
  };
}

