import { Cluster, Redis, type RedisOptions } from 'ioredis';
import { StoreUnavailableError } from '../errors.js';
import { ChannelSubscriber, quit, type ChannelRouting } from './redis-channels.js';
import { hashSlot } from './redis-slot.js';

/**
 * A connection for commands and scripts: one Redis, or a Redis Cluster (same command API).
 *
 * Key rule, so every adapter works on both: the keys one command, MULTI or script touches
 * together must share a hash slot. Put the owner's id in braces (`taggedKey`): Redis hashes only
 * the part inside the first `{…}`, so `parley:log:{42}` and `parley:seq:{42}` share a slot while
 * other conversations spread over the cluster. A single key needs no tag.
 */
export type RedisClient = Redis | Cluster;

/** `<prefix><kind>:{<owner>}[:<rest>…]`: a key in the slot of `owner` (see the key rule above). */
export function taggedKey(prefix: string, kind: string, owner: string, ...rest: string[]): string {
  return [`${prefix}${kind}:{${owner}}`, ...rest].join(':');
}

/** Where Redis is: `REDIS_URL` or the seed nodes of `REDIS_CLUSTER_NODES`. */
export type RedisTarget = { url: string } | { clusterNodes: Array<{ host: string; port: number }> };

/** Connections of one BFF instance. */
export interface RedisConnections {
  /** Commands and scripts. */
  client: RedisClient;
  /** Classic pub/sub (SUBSCRIBE, `message` events): every instance hears every message, also on a cluster. */
  subscriber: RedisClient;
  /** Per-conversation channels: classic on one Redis, sharded (SSUBSCRIBE) on a cluster. */
  channels: ChannelSubscriber;
  /** How a conversation's events are published from a script: `PUBLISH` or `SPUBLISH`. */
  publishCommand: 'PUBLISH' | 'SPUBLISH';
  /**
   * Rejects when this instance cannot serve. On a cluster it is enough that some master answers:
   * one master down stops only its slots, and taking every instance out of the load balancer for it
   * would stop the others too.
   */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Options of `connectRedis` and `createRedisAdapters`. */
export interface RedisConnectionOptions {
  /** A command without an answer after this long fails (a half-open connection). Default 1000. */
  commandTimeoutMs?: number;
  /** Connection errors ioredis reports while it reconnects (commands fail on their own anyway). */
  onConnectionError?: (err: Error) => void;
  /** Once when a connection is lost (it reconnects by itself), and once when it is back: for the log. */
  onConnectionChange?: (change: { up: boolean; connection: string }) => void;
}

/** Opens the connections for `target`; rejects with `StoreUnavailableError` when it cannot be reached. */
export async function connectRedis(target: RedisTarget, options: RedisConnectionOptions = {}): Promise<RedisConnections> {
  const settings = connectionSettings(options);
  if ('url' in target) {
    const client = watch(new Redis(target.url, { ...settings, connectionName: 'parley-cmd' }), options);
    const subscriber = watch(new Redis(target.url, { ...settings, connectionName: 'parley-sub' }), options);
    await connectAll([client, subscriber], `${client.options.host}:${client.options.port}`);
    const routing: ChannelRouting = { mode: 'classic', nodeOf: () => 'single', connect: () => subscriber };
    const channels = new ChannelSubscriber(routing);
    const ping = async () => {
      // With the subscriber down, live streams would go quiet.
      if (subscriber.status !== 'ready') throw new Error(`Redis subscriber connection is ${subscriber.status}`);
      await client.ping();
    };
    return { client, subscriber, channels, publishCommand: 'PUBLISH', ping, close: async () => void (await Promise.all([quit(client), quit(subscriber)])) };
  }
  const cluster = watch(
    new Cluster(target.clusterNodes, {
      lazyConnect: true,
      enableOfflineQueue: false,
      // A master that is down fails its commands quickly (503, the service retries) instead of waiting.
      retryDelayOnClusterDown: 100,
      retryDelayOnFailover: 100,
      maxRedirections: 4,
      slotsRefreshTimeout: 2000,
      redisOptions: { ...settings, connectionName: 'parley-cmd' },
    }),
    options,
  );
  await connectAll([cluster], target.clusterNodes.map((n) => `${n.host}:${n.port}`).join(', '));
  const routing: ChannelRouting = {
    mode: 'sharded',
    // The master serving the channel's slot, as ioredis last learnt the slot map.
    nodeOf: (channel) => cluster.slots[hashSlot(channel)]?.[0] ?? 'unknown',
    connect: (node) => {
      const [host, port] = splitNodeKey(node);
      return watch(new Redis({ ...settings, host, port, lazyConnect: false, connectionName: 'parley-shard-sub' }), options);
    },
  };
  const channels = new ChannelSubscriber(routing);
  // Failover or resharding moves slots: their channels follow to the new master.
  cluster.on('refresh', () => channels.reroute());
  // ioredis gives a cluster's classic subscriptions a connection of their own.
  const ping = async () => void (await Promise.any(cluster.nodes('master').map((node) => node.ping())));
  return { client: cluster, subscriber: cluster, channels, publishCommand: 'SPUBLISH', ping, close: async () => void (await Promise.all([quit(cluster), channels.close()])) };
}

function connectionSettings(options: RedisConnectionOptions): RedisOptions {
  return {
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
}

async function connectAll(connections: RedisClient[], where: string): Promise<void> {
  // Every attempt is waited for: one that fails first would leave the others' promises to reject
  // unheard ("Connection is closed") once they are dropped below.
  const failed = (await Promise.allSettled(connections.map((connection) => connection.connect()))).find((r) => r.status === 'rejected');
  if (failed) {
    for (const connection of connections) connection.disconnect();
    // Which Redis it tried (host and port only: a URL's password never reaches a log).
    throw new StoreUnavailableError(`Event store unavailable: Redis at ${where} cannot be reached`, { cause: failed.reason });
  }
}

function watch<T extends RedisClient>(connection: T, options: RedisConnectionOptions): T {
  // Without a listener ioredis prints every reconnect failure to the console.
  connection.on('error', (err: Error) => options.onConnectionError?.(err));
  // 'reconnecting' comes only for a connection that was lost (never after quit), 'ready' when it is back.
  const name = connection instanceof Cluster ? 'cluster' : (connection.options.connectionName ?? 'redis');
  let lost = false;
  connection.on('reconnecting', () => {
    if (lost) return;
    lost = true;
    options.onConnectionChange?.({ up: false, connection: name });
  });
  connection.on('ready', () => {
    if (!lost) return;
    lost = false;
    options.onConnectionChange?.({ up: true, connection: name });
  });
  return connection;
}

/** `host:port` as ioredis names cluster nodes (the host may be an IPv6 address with colons). */
function splitNodeKey(node: string): [string, number] {
  const colon = node.lastIndexOf(':');
  return [node.slice(0, colon), Number(node.slice(colon + 1))];
}
