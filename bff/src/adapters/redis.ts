import { Redis, type RedisOptions } from 'ioredis';
import { StoreUnavailableError } from '../errors.js';
import type { RetentionOptions } from '../ports/event-store.js';
import { RedisOnceStore, RedisRateLimiter } from './redis-limits.js';
import { RedisSignalBus } from './redis-signals.js';
import { RedisEventStore } from './redis-store.js';
import { RedisUserDirectory } from './redis-users.js';

/** The Redis-backed adapters of one BFF instance, on one command and one subscriber connection. */
export interface RedisAdapters {
  store: RedisEventStore;
  rateLimiter: RedisRateLimiter;
  onceStore: RedisOnceStore;
  users: RedisUserDirectory;
  /** Notices to every instance, on the store's connections. */
  signals: RedisSignalBus;
  /** Quits both connections. */
  close(): Promise<void>;
}

/** Options of `createRedisAdapters`. */
export interface RedisAdapterOptions {
  /** Prepended to every key and channel. Default `parley:`. */
  prefix?: string;
  /** See `RedisEventStoreOptions.sequenceTtlMs`. */
  sequenceTtlMs?: number;
  /** A command without an answer after this long fails (a half-open connection). Default 1000. */
  commandTimeoutMs?: number;
  /** Connection errors ioredis reports while it reconnects (commands fail on their own anyway). */
  onConnectionError?: (err: Error) => void;
}

/**
 * Connects to `url` and builds the store, rate limiter and once-store. Rejects with
 * `StoreUnavailableError` when Redis cannot be reached, so a misconfigured instance fails at start-up.
 */
export async function createRedisAdapters(url: string, retention: RetentionOptions, options: RedisAdapterOptions = {}): Promise<RedisAdapters> {
  const prefix = options.prefix ?? 'parley:';
  const client = connection(url, 'parley-cmd', options);
  const subscriber = connection(url, 'parley-sub', options);
  try {
    await Promise.all([client.connect(), subscriber.connect()]);
  } catch (err) {
    client.disconnect();
    subscriber.disconnect();
    throw new StoreUnavailableError(undefined, { cause: err });
  }
  const store = new RedisEventStore({ client, subscriber, retention, prefix, sequenceTtlMs: options.sequenceTtlMs });
  return {
    store,
    rateLimiter: new RedisRateLimiter(client, prefix),
    onceStore: new RedisOnceStore(client, prefix),
    users: new RedisUserDirectory(client, { prefix }),
    signals: new RedisSignalBus(client, subscriber, prefix),
    close: () => store.close(),
  };
}

function connection(url: string, name: string, options: RedisAdapterOptions): Redis {
  const settings: RedisOptions = {
    connectionName: name,
    lazyConnect: true,
    // Fail fast while Redis is away: callers answer 503 and webhooks get retried by the service,
    // instead of requests piling up in a queue with no bound.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Re-sending an append whose answer was lost could store it twice; fail it instead.
    autoResendUnfulfilledCommands: false,
    commandTimeout: options.commandTimeoutMs ?? 1000,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 50, 1000),
    keepAlive: 10_000,
  };
  const redis = new Redis(url, settings);
  // Without a listener ioredis prints every reconnect failure to the console.
  redis.on('error', (err: Error) => options.onConnectionError?.(err));
  return redis;
}
