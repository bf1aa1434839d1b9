import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisAdapters, type RedisAdapters } from '../../bff/src/adapters/redis.js';
import { RedisUserDirectory } from '../../bff/src/adapters/redis-users.js';
import { StoreUnavailableError } from '../../bff/src/errors.js';
import type { AppendResult, RetentionOptions } from '../../bff/src/ports/event-store.js';
import type { StoredEvent } from '../../shared/types.js';
import { describeEventStoreContract, describeOnceStoreContract, describeRateLimiterContract } from '../contract/store-contract.js';
import { describeStartRecordsContract } from '../contract/start-contract.js';
import { describeTicketContract } from '../contract/ticket-contract.js';
import { describeUserDirectoryContract } from '../contract/user-directory-contract.js';
import { describeEmailLedgerContract } from '../contract/email-ledger-contract.js';
import { beforeMarker, until } from '../helpers/wait.js';
import { skipRedisTests, startRedisServer, type TestRedis } from './redis-server.js';

const RETENTION: RetentionOptions = { maxEvents: 1000, maxAgeMs: 3_600_000, dedupTtlMs: 3_600_000 };

describe.skipIf(skipRedisTests)('Redis adapters', () => {
  let server: TestRedis | undefined;
  let url = '';
  let admin: Redis;
  const opened: Array<{ adapters: RedisAdapters; prefix: string }> = [];

  beforeAll(async () => {
    // REDIS_URL lets CI point at a service container; otherwise each run owns a throwaway server.
    if (process.env.REDIS_URL) url = process.env.REDIS_URL;
    else {
      server = await startRedisServer();
      url = server.url;
    }
    admin = new Redis(url, { lazyConnect: true });
    await admin.connect();
  });

  afterAll(async () => {
    await Promise.all(opened.map(({ adapters }) => adapters.close()));
    // With a shared REDIS_URL, leave nothing behind.
    for (const prefix of new Set(opened.map((o) => o.prefix))) await dropKeys(admin, prefix);
    admin?.disconnect();
    await server?.stop();
  });

  /** A BFF instance's adapters; the same `prefix` makes instances of one deployment. */
  async function instance(prefix: string, retention: RetentionOptions = RETENTION): Promise<RedisAdapters> {
    const adapters = await createRedisAdapters(url, retention, { prefix });
    opened.push({ adapters, prefix });
    return adapters;
  }
  const freshPrefix = () => `test-${randomUUID()}:`;

  describeEventStoreContract('redis', async (retention) => {
    const adapters = await instance(freshPrefix(), retention);
    return { store: adapters.store, cleanup: () => adapters.close() };
  });
  describeRateLimiterContract('redis', async () => {
    const adapters = await instance(freshPrefix());
    return { limiter: adapters.rateLimiter, cleanup: () => adapters.close() };
  });
  describeOnceStoreContract('redis', async () => {
    const adapters = await instance(freshPrefix());
    return { onceStore: adapters.onceStore, cleanup: () => adapters.close() };
  });
  describeStartRecordsContract('redis', async () => {
    const adapters = await instance(freshPrefix());
    return { starts: adapters.starts, cleanup: () => adapters.close() };
  });
  describeTicketContract('redis', async () => {
    const adapters = await instance(freshPrefix());
    return { onceStore: adapters.onceStore, cleanup: () => adapters.close() };
  });

  describeUserDirectoryContract('redis', async (now) => ({ users: new RedisUserDirectory(admin, { prefix: freshPrefix(), now }), cleanup: async () => {} }));

  describeEmailLedgerContract('redis', async () => {
    const prefix = freshPrefix();
    const [a, b] = [await instance(prefix), await instance(prefix)];
    return { ledgers: [a.emailLedger, b.emailLedger], cleanup: async () => {} };
  });

  describe('several instances of one deployment', () => {
    it('fans an append on instance A out to a subscriber on instance B, in order', async () => {
      const prefix = freshPrefix();
      const [a, b] = [await instance(prefix), await instance(prefix)];
      const received: StoredEvent[] = [];
      await b.store.subscribe('conv', (e) => received.push(e));
      for (let n = 1; n <= 5; n++) await a.store.append('conv', { event: 'variables', data: { name: `s${n}` } });
      await until('5 events on B', () => received.length >= 5);
      expect(received.map((e) => [e.id, e.data])).toEqual([1, 2, 3, 4, 5].map((n) => [n, { name: `s${n}` }]));
      expect(await b.store.read('conv', 0, 10)).toEqual(received);
    });

    it('deduplicates across instances, also when they race', async () => {
      const prefix = freshPrefix();
      const [a, b] = [await instance(prefix), await instance(prefix)];
      expect((await a.store.append('c1', { event: 'archived', data: {} }, { dedupKey: 'evt-1' })).status).toBe('stored');
      expect(await b.store.append('c1', { event: 'archived', data: {} }, { dedupKey: 'evt-1' })).toEqual({ status: 'duplicate' });
      const race = await Promise.all(
        Array.from({ length: 10 }, (_, n) => (n % 2 ? a : b).store.append('c2', { event: 'archived', data: {} }, { dedupKey: 'evt-2' })),
      );
      expect(race.filter((r) => r.status === 'stored')).toHaveLength(1);
    });

    it('shares rate limits and claimed keys across instances', async () => {
      const prefix = freshPrefix();
      const [a, b] = [await instance(prefix), await instance(prefix)];
      await a.rateLimiter.hit('ip', 2, 60_000);
      expect(await b.rateLimiter.hit('ip', 2, 60_000)).toEqual({ allowed: true, remaining: 0 });
      expect((await a.rateLimiter.hit('ip', 2, 60_000)).allowed).toBe(false);
      expect(await a.onceStore.claim('refresh-1', 60_000)).toBe(true);
      expect(await b.onceStore.claim('refresh-1', 60_000)).toBe(false);
    });

    it('keeps deployments with different prefixes apart', async () => {
      const [one, two] = [await instance(freshPrefix()), await instance(freshPrefix())];
      const heardByOne: StoredEvent[] = [];
      await one.store.subscribe('conv', (e) => heardByOne.push(e));
      const stored = await two.store.append('conv', { event: 'archived', data: {} }, { dedupKey: 'same' });
      expect(stored.status === 'stored' && stored.event.id).toBe(1);
      expect((await one.store.append('conv', { event: 'archived', data: {} }, { dedupKey: 'same' })).status).toBe('stored');
      await until('own event', () => heardByOne.length === 1);
      expect(await one.store.read('conv', 0, 10)).toEqual(heardByOne);
    });
  });

  describe('Redis specifics', () => {
    it('holds one SUBSCRIBE per conversation, confirmed before subscribe() resolves, dropped with the last listener', async () => {
      const prefix = freshPrefix();
      const { store } = await instance(prefix);
      const channel = `${prefix}ev:{conv}`;
      const subscribers = async () => ((await admin.pubsub('NUMSUB', channel)) as [string, number])[1];
      const off1 = await store.subscribe('conv', () => {});
      expect(await subscribers()).toBe(1);
      const off2 = await store.subscribe('conv', () => {});
      expect(await subscribers()).toBe(1);
      off1();
      off2();
      await until('UNSUBSCRIBE', async () => (await subscribers()) === 0);
    });

    it('bounds what it keeps in Redis: stream length, and TTLs on log, counter and dedup keys', async () => {
      const prefix = freshPrefix();
      const { store } = await instance(prefix, { maxEvents: 3, maxAgeMs: 60_000, dedupTtlMs: 30_000 });
      for (let n = 1; n <= 10; n++) await store.append('conv', { event: 'archived', data: {} }, { dedupKey: `k${n}` });
      expect(await admin.xlen(`${prefix}log:{conv}`)).toBe(3);
      const logTtl = await admin.pttl(`${prefix}log:{conv}`);
      expect(logTtl > 0 && logTtl <= 60_000).toBe(true);
      expect(await admin.pttl(`${prefix}seq:{conv}`)).toBeGreaterThan(60_000);
      const dedupTtl = await admin.pttl(`${prefix}dedup:{conv}:k10`);
      expect(dedupTtl > 0 && dedupTtl <= 30_000).toBe(true);
    });

    it('continues after the last id when the counter key was lost but the log lives', async () => {
      const prefix = freshPrefix();
      const { store } = await instance(prefix);
      for (let n = 1; n <= 3; n++) await store.append('conv', { event: 'archived', data: {} });
      await admin.del(`${prefix}seq:{conv}`);
      const next = await store.append('conv', { event: 'archived', data: {} });
      expect(next.status === 'stored' && next.event.id).toBe(4);
    });
  });

  describe('connection loss and outage (a redis-server of its own)', () => {
    // These kill connections and the server, so never on a shared REDIS_URL.
    let own: TestRedis;
    let ownAdmin: Redis;
    const owned: RedisAdapters[] = [];
    beforeAll(async () => {
      own = await startRedisServer();
      ownAdmin = new Redis(own.url, { lazyConnect: true });
      await ownAdmin.connect();
    });
    afterAll(async () => {
      await Promise.all(owned.map((adapters) => adapters.close()));
      ownAdmin?.disconnect();
      await own?.stop();
    });
    async function ownInstance(prefix: string): Promise<RedisAdapters> {
      const adapters = await createRedisAdapters(own.url, RETENTION, { prefix });
      owned.push(adapters);
      return adapters;
    }
    /** Instance B listens on `conv`; one event from A has reached it. */
    async function listening(prefix: string) {
      const [a, b] = [await ownInstance(prefix), await ownInstance(prefix)];
      const received: StoredEvent[] = [];
      /** Indexes in `received` of events flagged as "ids started over". */
      const restarts: number[] = [];
      await b.store.subscribe('conv', (e, restarted) => {
        if (restarted) restarts.push(received.length);
        received.push(e);
      });
      await a.store.append('conv', { event: 'variables', data: { name: 'before' } });
      await until('first event', () => received.length === 1);
      return { a, received, restarts };
    }
    /** Drops every subscriber connection and proves it is still down after `work` ran. */
    async function whileSubscriberDown(prefix: string, work: () => Promise<unknown>): Promise<void> {
      await ownAdmin.client('KILL', 'TYPE', 'pubsub');
      await work();
      expect(await ownAdmin.pubsub('NUMSUB', `${prefix}ev:{conv}`)).toEqual([`${prefix}ev:{conv}`, 0]);
    }

    it('delivers, once, what was published while its subscriber connection was down', async () => {
      const prefix = freshPrefix();
      const { a, received, restarts } = await listening(prefix);
      await whileSubscriberDown(prefix, () => a.store.append('conv', { event: 'variables', data: { name: 'missed' } }));
      await until('gap filled', () => received.length >= 2);
      await a.store.append('conv', { event: 'variables', data: { name: 'after' } });
      await until('live again', () => received.length >= 3);
      expect((await beforeMarker(a.store, 'conv', received, (e, marker) => e.id === marker.id && (e.data as { name?: string }).name === (marker.data as { name?: string }).name)).map((e) => [e.id, e.data])).toEqual([
        [1, { name: 'before' }],
        [2, { name: 'missed' }],
        [3, { name: 'after' }],
      ]);
      expect(restarts).toEqual([]);
    });

    it('delivers events whose ids started over because Redis lost its data while the subscriber was down', async () => {
      const prefix = freshPrefix();
      const { a, received, restarts } = await listening(prefix);
      await whileSubscriberDown(prefix, async () => {
        await ownAdmin.flushall();
        const again = await a.store.append('conv', { event: 'variables', data: { name: 'after loss' } });
        expect(again).toMatchObject({ status: 'stored', event: { id: 1 } });
      });
      await until('event after the loss', () => received.length >= 2);
      expect((await beforeMarker(a.store, 'conv', received, (e, marker) => e.id === marker.id && (e.data as { name?: string }).name === (marker.data as { name?: string }).name)).map((e) => [e.id, e.data])).toEqual([
        [1, { name: 'before' }],
        [1, { name: 'after loss' }],
      ]);
      // Flagged, so a listener that drops ids it has seen (the event stream) keeps this one.
      expect(restarts).toEqual([1]);
    });

    it('fails fast with StoreUnavailableError while Redis is down, and delivers again after it restarts', async () => {
      const adapters = await createRedisAdapters(own.url, RETENTION, { prefix: 'outage:' });
      const probe = new Redis(own.url, { lazyConnect: true, enableOfflineQueue: false });
      probe.on('error', () => {});
      try {
        await outageScenario(adapters, probe);
      } finally {
        probe.disconnect();
        await adapters.close();
      }
    });

    async function outageScenario(adapters: RedisAdapters, probe: Redis): Promise<void> {
      const { store, rateLimiter, onceStore } = adapters;
      const received: StoredEvent[] = [];
      await store.subscribe('conv', (e) => received.push(e));
      await store.append('conv', { event: 'variables', data: { name: 'up' } });
      await until('first event', () => received.length === 1);

      await own.stop();
      const attempts: Array<[string, () => Promise<unknown>]> = [
        ['append', () => store.append('conv', { event: 'variables', data: { name: 'down' } }, { dedupKey: 'd1' })],
        ['read', () => store.read('conv', 0, 10)],
        ['ping', () => store.ping()],
        ['subscribe', () => store.subscribe('other', () => {})],
        ['hit', () => rateLimiter.hit('ip', 5, 60_000)],
        ['claim', () => onceStore.claim('k', 60_000)],
        ['createRedisAdapters', () => createRedisAdapters(own.url, RETENTION)],
      ];
      for (const [name, attempt] of attempts) {
        const started = Date.now();
        const error = await attempt().then(() => undefined, (err: unknown) => err);
        expect(error, name).toBeInstanceOf(StoreUnavailableError);
        expect((error as StoreUnavailableError).cause, name).toBeDefined();
        expect(Date.now() - started, name).toBeLessThan(2000);
      }

      await own.restart(); // empty: no persistence, so ids start over
      // Append as soon as the command connection is back, most likely before the subscriber has
      // re-subscribed: the gap fill must notice that Redis came back empty and deliver it anyway.
      let back: AppendResult | undefined;
      await until('append after restart', async () => (back = await store.append('conv', { event: 'variables', data: { name: 'back' } }).catch(() => undefined)) !== undefined, 10_000);
      expect(back).toMatchObject({ status: 'stored', event: { id: 1 } });
      await until('event after restart', () => received.length >= 2);
      await probe.connect();
      // ioredis re-subscribed by itself; nobody calls subscribe() again here.
      await until('resubscribed', async () => ((await probe.pubsub('NUMSUB', 'outage:ev:{conv}')) as [string, number])[1] === 1);
      await store.append('conv', { event: 'variables', data: { name: 'live' } });
      await until('live event', () => received.length >= 3);
      expect((await beforeMarker(store, 'conv', received, (e, marker) => e.id === marker.id && (e.data as { name?: string }).name === (marker.data as { name?: string }).name)).map((e) => [e.id, e.data])).toEqual([
        [1, { name: 'up' }],
        [1, { name: 'back' }],
        [2, { name: 'live' }],
      ]);
    }
  });
});

async function dropKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
