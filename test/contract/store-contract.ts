import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventStore, RetentionOptions } from '../../bff/src/ports/event-store.js';
import type { OnceStore } from '../../bff/src/ports/once-store.js';
import type { RateLimiter } from '../../bff/src/ports/rate-limiter.js';
import type { Author, StoredEvent, StreamEvent } from '../../shared/types.js';
import { sleep, until } from '../helpers/wait.js';

/** Builds a fresh, empty store for one test; `cleanup` releases it. */
export type MakeStore = (retention: RetentionOptions) => Promise<{ store: EventStore; cleanup(): Promise<void> }>;
export type MakeRateLimiter = () => Promise<{ limiter: RateLimiter; cleanup(): Promise<void> }>;
export type MakeOnceStore = () => Promise<{ onceStore: OnceStore; cleanup(): Promise<void> }>;

const ROOMY: RetentionOptions = { maxEvents: 1000, maxAgeMs: 3_600_000, dedupTtlMs: 3_600_000 };

const ids = (events: StoredEvent[]) => events.map((e) => e.id);
const unique = (label: string) => `${label}-${randomUUID()}`;

function message(n: number): StreamEvent {
  return { event: 'message', data: { id: `m${n}`, role: 'bot', text: `hello ${n} — ünïcødé ✓`, createdAt: '2024-01-01T00:00:00.000Z' } };
}

/** Records what a listener receives; `waitFor(n)` fails after 5 s if fewer than n arrived. */
function collector() {
  const events: StoredEvent[] = [];
  return {
    events,
    listener: (event: StoredEvent) => void events.push(event),
    async waitFor(n: number): Promise<void> {
      const deadline = Date.now() + 5000;
      while (events.length < n) {
        if (Date.now() > deadline) throw new Error(`expected ${n} events, received ${events.length}`);
        await sleep(5);
      }
    },
  };
}

/** Runs the `EventStore` contract (docs/api.md "Event stream", "Webhooks") against one implementation. */
export function describeEventStoreContract(name: string, makeStore: MakeStore): void {
  describe(`EventStore contract: ${name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });
    async function open(retention: Partial<RetentionOptions> = {}): Promise<EventStore> {
      const { store, cleanup } = await makeStore({ ...ROOMY, ...retention });
      cleanups.push(cleanup);
      return store;
    }
    /** Appends `event` to `conversation` and waits until `probe` saw it: everything before it has been delivered. */
    async function fence(store: EventStore, conversation: string, probe: ReturnType<typeof collector>): Promise<StoredEvent> {
      const result = await store.append(conversation, { event: 'variables', data: { name: 'fence' } });
      if (result.status !== 'stored') throw new Error('fence not stored');
      const deadline = Date.now() + 5000;
      while (!probe.events.some((e) => e.id === result.event.id)) {
        if (Date.now() > deadline) throw new Error('fence event never delivered');
        await sleep(5);
      }
      return result.event;
    }

    it('numbers each conversation from 1 upwards, independently of the others', async () => {
      const store = await open();
      const [a, b] = [unique('a'), unique('b')];
      const before = Date.now();
      const results = [await store.append(a, message(1)), await store.append(a, message(2)), await store.append(b, message(3)), await store.append(a, message(4))];
      expect(results.map((r) => (r.status === 'stored' ? r.event.id : 'duplicate'))).toEqual([1, 2, 1, 3]);
      const first = results[0]!;
      expect(first).toEqual({ status: 'stored', event: { ...message(1), id: 1, ts: expect.any(Number) } });
      if (first.status === 'stored') expect(Math.abs(first.event.ts - before)).toBeLessThan(5000);
    });

    it('reads after an id, oldest first, at most `limit`, exactly as appended', async () => {
      const store = await open();
      const conversation = unique('read');
      const stored: StoredEvent[] = [];
      for (let n = 1; n <= 10; n++) {
        const r = await store.append(conversation, n % 2 ? message(n) : { event: 'variables', data: { name: `v${n}`, value: { nested: [n, null, true] } } });
        if (r.status === 'stored') stored.push(r.event);
      }
      expect(await store.read(conversation, 0, 100)).toEqual(stored);
      expect(ids(await store.read(conversation, 0, 3))).toEqual([1, 2, 3]);
      expect(ids(await store.read(conversation, 3, 100))).toEqual([4, 5, 6, 7, 8, 9, 10]);
      expect(ids(await store.read(conversation, 7, 2))).toEqual([8, 9]);
      expect(await store.read(conversation, 10, 5)).toEqual([]);
      expect(await store.read(unique('never-written'), 0, 10)).toEqual([]);
    });

    it('tells the newest id given out: 0 for a new conversation, and it survives trimming', async () => {
      const store = await open({ maxEvents: 2 });
      const conversation = unique('last');
      expect(await store.lastId(conversation)).toBe(0);
      for (let n = 1; n <= 5; n++) await store.append(conversation, message(n));
      expect(await store.lastId(conversation)).toBe(5);
      await store.append(conversation, message(1), { dedupKey: unique('k') });
      expect(await store.lastId(conversation)).toBe(6);
      expect(await store.lastId(unique('other'))).toBe(0);
    });

    it('keeps only the newest `maxEvents` events, and ids keep growing', async () => {
      const store = await open({ maxEvents: 5 });
      const conversation = unique('count');
      for (let n = 1; n <= 8; n++) await store.append(conversation, message(n));
      expect(ids(await store.read(conversation, 0, 100))).toEqual([4, 5, 6, 7, 8]);
      const next = await store.append(conversation, message(9));
      expect(next.status === 'stored' && next.event.id).toBe(9);
      expect(ids(await store.read(conversation, 0, 100))).toEqual([5, 6, 7, 8, 9]);
    });

    it('never returns events older than `maxAgeMs`, and ids keep growing after they expire', async () => {
      const store = await open({ maxAgeMs: 600 });
      const conversation = unique('age');
      await store.append(conversation, message(1));
      await store.append(conversation, message(2));
      // Time is the subject: event 3 must be younger than 1 and 2 by a good part of `maxAgeMs`.
      await sleep(400);
      await store.append(conversation, message(3));
      expect(ids(await store.read(conversation, 0, 100))).toEqual([1, 2, 3]);
      const read = async () => ids(await store.read(conversation, 0, 100)).join();
      await until('events 1 and 2 expired, event 3 not yet', async () => (await read()) === '3');
      await until('event 3 expired', async () => (await read()) === '');
      const next = await store.append(conversation, message(4));
      expect(next.status === 'stored' && next.event.id).toBe(4);
    });

    it('stores an event once per dedup key: a repeat is a duplicate, stores nothing and is not fanned out', async () => {
      const store = await open();
      const conversation = unique('dedup');
      const probe = collector();
      await store.subscribe(conversation, probe.listener);
      const key = unique('event');
      expect((await store.append(conversation, message(1), { dedupKey: key })).status).toBe('stored');
      expect(await store.append(conversation, message(1), { dedupKey: key })).toEqual({ status: 'duplicate' });
      expect((await store.append(conversation, message(2), { dedupKey: unique('other') })).status).toBe('stored');
      await fence(store, conversation, probe);
      expect(ids(probe.events)).toEqual([1, 2, 3]);
      expect(ids(await store.read(conversation, 0, 100))).toEqual([1, 2, 3]);
    });

    it('keeps dedup keys per conversation (every delivery of an event names the same one), and a duplicate uses up no id', async () => {
      const store = await open();
      const [a, b] = [unique('a'), unique('b')];
      const key = unique('event');
      expect((await store.append(a, message(1), { dedupKey: key })).status).toBe('stored');
      expect(await store.append(a, message(1), { dedupKey: key })).toEqual({ status: 'duplicate' });
      const next = await store.append(a, message(2));
      expect(next.status === 'stored' && next.event.id).toBe(2);
      // The same key in another conversation is another event: a Redis Cluster checks it in that conversation's slot.
      const other = await store.append(b, message(1), { dedupKey: key });
      expect(other.status === 'stored' && other.event.id).toBe(1);
    });

    it('without a dedup key, the same event is stored every time', async () => {
      const store = await open();
      const conversation = unique('plain');
      await store.append(conversation, message(1));
      await store.append(conversation, message(1));
      expect(ids(await store.read(conversation, 0, 100))).toEqual([1, 2]);
    });

    it('stores exactly one of many concurrent appends with the same dedup key', async () => {
      const store = await open();
      const conversation = unique('race');
      const key = unique('event');
      const results = await Promise.all(Array.from({ length: 20 }, (_, n) => store.append(conversation, message(n), { dedupKey: key })));
      expect(results.filter((r) => r.status === 'stored')).toHaveLength(1);
      expect(await store.read(conversation, 0, 100)).toHaveLength(1);
    });

    it('gives 200 concurrent appends 200 distinct consecutive ids, read back in order', async () => {
      const store = await open();
      const conversation = unique('concurrent');
      const results = await Promise.all(Array.from({ length: 200 }, (_, n) => store.append(conversation, message(n))));
      const got = results.map((r) => (r.status === 'stored' ? r.event.id : 0)).sort((x, y) => x - y);
      expect(got).toEqual(Array.from({ length: 200 }, (_, n) => n + 1));
      expect(ids(await store.read(conversation, 0, 500))).toEqual(got);
    });

    it('delivers events appended after `subscribe` resolved, in order, exactly once, only its own conversation', async () => {
      const store = await open();
      const [conversation, other] = [unique('live'), unique('other')];
      await store.append(conversation, message(0));
      const probe = collector();
      await store.subscribe(conversation, probe.listener);
      const appended: StoredEvent[] = [];
      for (let n = 1; n <= 20; n++) {
        const r = await store.append(conversation, message(n));
        if (r.status === 'stored') appended.push(r.event);
        await store.append(other, message(n));
      }
      const last = await fence(store, conversation, probe);
      expect(probe.events).toEqual([...appended, last]);
    });

    it('stops delivering to a listener once it unsubscribed, and keeps delivering to the others', async () => {
      const store = await open();
      const conversation = unique('unsub');
      const [leaver, stayer] = [collector(), collector()];
      const unsubscribe = await store.subscribe(conversation, leaver.listener);
      await store.subscribe(conversation, stayer.listener);
      await fence(store, conversation, leaver);
      unsubscribe();
      unsubscribe(); // a second call is harmless
      await store.append(conversation, message(1));
      await fence(store, conversation, stayer);
      expect(ids(leaver.events)).toEqual([1]);
      expect(ids(stayer.events)).toEqual([1, 2, 3]);
    });

    it('delivers to every subscriber, even when one of them throws', async () => {
      const store = await open();
      const conversation = unique('many');
      const [first, second] = [collector(), collector()];
      await store.subscribe(conversation, () => {
        throw new Error('broken listener');
      });
      await store.subscribe(conversation, first.listener);
      await store.subscribe(conversation, second.listener);
      for (let n = 1; n <= 3; n++) expect((await store.append(conversation, message(n))).status).toBe('stored');
      await fence(store, conversation, second);
      expect(ids(first.events)).toEqual([1, 2, 3, 4]);
      expect(ids(second.events)).toEqual([1, 2, 3, 4]);
    });

    it('remembers who wrote each message per conversation, the latest write winning, beyond the events it keeps', async () => {
      const store = await open({ maxEvents: 10, maxAgeMs: 300 });
      const [a, b] = [unique('authors-a'), unique('authors-b')];
      expect(await store.authorsOf(a)).toEqual(new Map());
      const theo = { kind: 'operator' as const, name: 'Theo Adeyemi', avatarUrl: '/demo/assets/operator-theo.svg' };
      await store.rememberAuthor(a, 'm1', theo);
      await store.rememberAuthor(a, '50002', { kind: 'operator', name: 'Mara' });
      await store.rememberAuthor(b, 'm1', { kind: 'operator', name: 'Ada' });
      await store.rememberAuthor(a, '50002', { kind: 'operator', name: 'Mara Lindqvist' });
      expect(await store.authorsOf(a)).toEqual(new Map<string, Author>([['m1', theo], ['50002', { kind: 'operator', name: 'Mara Lindqvist' }]]));
      expect(await store.authorsOf(b)).toEqual(new Map([['m1', { kind: 'operator', name: 'Ada' }]]));
      // The conversation's events expire; who wrote its messages does not.
      await store.append(a, message(1));
      await until('the event expired', async () => (await store.read(a, 0, 10)).length === 0);
      expect((await store.authorsOf(a)).get('m1')).toEqual(theo);
    });

    it('answers ping while it is reachable', async () => {
      const store = await open();
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}

/** Runs the `RateLimiter` contract against one implementation. */
export function describeRateLimiterContract(name: string, makeLimiter: MakeRateLimiter): void {
  describe(`RateLimiter contract: ${name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });
    async function open(): Promise<RateLimiter> {
      const { limiter, cleanup } = await makeLimiter();
      cleanups.push(cleanup);
      return limiter;
    }

    it('allows `limit` hits per window, then refuses with a whole positive `retryAfterSec`', async () => {
      const limiter = await open();
      const key = unique('ip');
      const results = [];
      for (let n = 0; n < 5; n++) results.push(await limiter.hit(key, 3, 60_000));
      expect(results.slice(0, 3)).toEqual([
        { allowed: true, remaining: 2 },
        { allowed: true, remaining: 1 },
        { allowed: true, remaining: 0 },
      ]);
      for (const refused of results.slice(3)) {
        expect(refused.allowed).toBe(false);
        const retry = refused.allowed ? 0 : refused.retryAfterSec;
        expect(Number.isInteger(retry) && retry >= 1 && retry <= 60).toBe(true);
      }
    });

    it('counts keys independently', async () => {
      const limiter = await open();
      const [a, b] = [unique('a'), unique('b')];
      await limiter.hit(a, 1, 60_000);
      expect((await limiter.hit(a, 1, 60_000)).allowed).toBe(false);
      expect(await limiter.hit(b, 1, 60_000)).toEqual({ allowed: true, remaining: 0 });
    });

    it('allows hits again once the window has passed', async () => {
      const limiter = await open();
      const key = unique('window');
      await limiter.hit(key, 1, 300);
      expect((await limiter.hit(key, 1, 300)).allowed).toBe(false);
      await until('the next window', async () => (await limiter.hit(key, 1, 300)).allowed);
    });
  });
}

/** Runs the `OnceStore` contract against one implementation. */
export function describeOnceStoreContract(name: string, makeOnceStore: MakeOnceStore): void {
  describe(`OnceStore contract: ${name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });
    async function open(): Promise<OnceStore> {
      const { onceStore, cleanup } = await makeOnceStore();
      cleanups.push(cleanup);
      return onceStore;
    }

    it('grants the first claim of a key and refuses every later one', async () => {
      const store = await open();
      const key = unique('token');
      expect(await store.claim(key, 60_000)).toBe(true);
      expect(await store.claim(key, 60_000)).toBe(false);
      expect(await store.claim(key, 60_000)).toBe(false);
      expect(await store.claim(unique('other'), 60_000)).toBe(true);
    });

    it('grants exactly one of many concurrent claims', async () => {
      const store = await open();
      const key = unique('token');
      const results = await Promise.all(Array.from({ length: 20 }, () => store.claim(key, 60_000)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('forgets a key after its ttl', async () => {
      const store = await open();
      const key = unique('token');
      const claimed = Date.now();
      expect(await store.claim(key, 200)).toBe(true);
      await until('the key forgotten', () => store.claim(key, 200));
      expect(Date.now() - claimed).toBeGreaterThanOrEqual(150); // not before its ttl (store clocks round)
    });

    it('holds a key marked again by its latest ttl only (a stream ticket: live, then a short grace)', async () => {
      const store = await open();
      const key = unique('ticket-live');
      await store.mark(key, 60_000);
      await store.mark(key, 200);
      const marked = Date.now();
      expect(await store.has(key)).toBe(true);
      await until('the key gone', async () => !(await store.has(key)));
      expect(Date.now() - marked).toBeGreaterThanOrEqual(150); // by the short ttl, not before
    });
  });
}
