import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisAdapters, type RedisAdapters } from '../../bff/src/adapters/redis.js';
import type { RetentionOptions } from '../../bff/src/ports/event-store.js';
import type { StoredEvent } from '../../shared/types.js';
import { beforeMarker, until } from '../helpers/wait.js';
import { skipRedisTests, startRedisServer, type TestRedis } from './redis-server.js';

const RETENTION: RetentionOptions = { maxEvents: 1000, maxAgeMs: 3_600_000, dedupTtlMs: 3_600_000 };

/**
 * Redis restarts empty while this instance has no stream open; streams opened
 * afterwards must not be handed the whole retained log again at the next ordinary reconnect.
 */
describe.skipIf(skipRedisTests)('Redis fan-out after Redis restarted empty', () => {
  let redis: TestRedis;
  let admin: Redis;
  let adapters: RedisAdapters;

  beforeAll(async () => {
    redis = await startRedisServer();
    admin = new Redis(redis.url, { lazyConnect: true, enableOfflineQueue: false });
    admin.on('error', () => {});
    adapters = await createRedisAdapters(redis.url, RETENTION, { prefix: 'restart:' });
  });

  afterAll(async () => {
    await adapters?.close();
    admin?.disconnect();
    await redis?.stop();
  });

  it('never hands a stream an id it already had', async () => {
    const { store } = adapters;
    // A stream came and went before the restart (the fan-out has seen the data set's epoch).
    const off = await store.subscribe('earlier', () => {});
    off();

    await redis.restart(); // empty: no persistence
    await until('store back', async () => (await store.append('conv', { event: 'variables', data: { name: 's1' } }).catch(() => undefined)) !== undefined);
    await store.append('conv', { event: 'variables', data: { name: 's2' } });
    await store.append('conv', { event: 'variables', data: { name: 's3' } });

    const received: Array<[number, boolean]> = [];
    await store.subscribe('conv', (event: StoredEvent, restarted = false) => received.push([event.id, restarted]));
    await store.append('conv', { event: 'variables', data: { name: 's4' } });
    await until('live event', () => received.length >= 1);

    // An ordinary reconnect of the subscriber connection (a network blip), with nothing lost.
    await admin.connect();
    await admin.client('KILL', 'TYPE', 'pubsub');
    await until('resubscribed', async () => ((await admin.pubsub('NUMSUB', 'restart:ev:{conv}')) as [string, number])[1] === 1);
    await store.append('conv', { event: 'variables', data: { name: 's5' } });
    await until('event after the reconnect', () => received.some(([id]) => id === 5));

    expect(await beforeMarker(store, 'conv', received, ([id], marker) => id === marker.id)).toEqual([
      [4, false],
      [5, false],
    ]);
  });
});
