import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisAdapters, type RedisAdapters } from '../../bff/src/adapters/redis.js';
import { connectRedis } from '../../bff/src/adapters/redis-connection.js';
import { RedisUserDirectory } from '../../bff/src/adapters/redis-users.js';
import type { RetentionOptions } from '../../bff/src/ports/event-store.js';
import { describeEventStoreContract, describeOnceStoreContract, describeRateLimiterContract } from '../contract/store-contract.js';
import { describeStartRecordsContract } from '../contract/start-contract.js';
import { describeUserDirectoryContract } from '../contract/user-directory-contract.js';
import { describeEmailLedgerContract } from '../contract/email-ledger-contract.js';
import { RedisEmailLedger } from '../../bff/src/adapters/redis-email-ledger.js';
import { startRedisCluster, type TestRedisCluster } from './redis-cluster.js';
import { until } from './cluster.js';
import { skipRedisTests } from './redis-server.js';

const RETENTION: RetentionOptions = { maxEvents: 1000, maxAgeMs: 3_600_000, dedupTtlMs: 3_600_000 };

/** The contract suites on a three-master Redis Cluster: no CROSSSLOT anywhere, fan-out on sharded pub/sub. */
describe.skipIf(skipRedisTests)('Redis Cluster adapters', () => {
  let cluster: TestRedisCluster;
  const opened: RedisAdapters[] = [];

  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 60_000);

  afterAll(async () => {
    await Promise.all(opened.map((adapters) => adapters.close()));
    await cluster?.stop();
  });

  async function instance(retention: RetentionOptions = RETENTION): Promise<RedisAdapters> {
    const adapters = await createRedisAdapters({ clusterNodes: cluster.nodes }, retention, { prefix: `test-${randomUUID()}:` });
    opened.push(adapters);
    return adapters;
  }

  describeEventStoreContract('redis cluster', async (retention) => {
    const adapters = await instance(retention);
    return { store: adapters.store, cleanup: () => adapters.close() };
  });
  describeRateLimiterContract('redis cluster', async () => {
    const adapters = await instance();
    return { limiter: adapters.rateLimiter, cleanup: () => adapters.close() };
  });
  describeOnceStoreContract('redis cluster', async () => {
    const adapters = await instance();
    return { onceStore: adapters.onceStore, cleanup: () => adapters.close() };
  });
  describeStartRecordsContract('redis cluster', async () => {
    const adapters = await instance();
    return { starts: adapters.starts, cleanup: () => adapters.close() };
  });
  it('carries a signal from one instance to another (classic pub/sub reaches every node)', async () => {
    const prefix = `test-${randomUUID()}:`;
    const [one, two] = [await createRedisAdapters({ clusterNodes: cluster.nodes }, RETENTION, { prefix }), await createRedisAdapters({ clusterNodes: cluster.nodes }, RETENTION, { prefix })];
    opened.push(one, two);
    const heard: string[] = [];
    await two.signals.subscribe('stop', (conversationId) => heard.push(conversationId));
    for (const conversationId of ['1', '2', '3']) await one.signals.publish('stop', conversationId);
    await until('signals heard', () => heard.length === 3);
    // Each PUBLISH may go to another node and cross the cluster bus on its own: every signal must
    // arrive, in no promised order (stops of different conversations do not depend on each other).
    expect([...heard].sort()).toEqual(['1', '2', '3']);
  });

  describeUserDirectoryContract('redis cluster', async (now) => {
    const connections = await connectRedis({ clusterNodes: cluster.nodes });
    return { users: new RedisUserDirectory(connections.client, { prefix: `test-${randomUUID()}:`, now }), cleanup: () => connections.close() };
  });

  describeEmailLedgerContract('redis cluster', async () => {
    const prefix = `test-${randomUUID()}:`;
    const [a, b] = [await connectRedis({ clusterNodes: cluster.nodes }), await connectRedis({ clusterNodes: cluster.nodes })];
    const cleanup = async () => {
      await a.close();
      await b.close();
    };
    return { ledgers: [new RedisEmailLedger(a.client, prefix), new RedisEmailLedger(b.client, prefix)], cleanup };
  });
});
