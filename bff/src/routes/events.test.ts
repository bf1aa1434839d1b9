import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '../../../shared/types.js';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { AppDeps } from '../context.js';
import { MemoryOnceStore } from '../adapters/memory-limits.js';
import { MemoryEventStore } from '../adapters/memory-store.js';
import { TokenService } from '../lib/tokens.js';
import type { EventListener, EventStore } from '../ports/event-store.js';
import { streamDeps } from '../../../test/helpers/stream-deps.js';

/** A memory store whose listeners the test can call directly, as a Redis fan-out would. */
function tappedStore(maxEvents = 100) {
  const memory = new MemoryEventStore({ maxEvents, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
  const listeners: EventListener[] = [];
  const store: EventStore = {
    append: (...args) => memory.append(...args),
    read: (...args) => memory.read(...args),
    lastId: (id) => memory.lastId(id),
    rememberAuthor: (...args) => memory.rememberAuthor(...args),
    authorsOf: (id) => memory.authorsOf(id),
    subscribe: async (id, listener) => {
      listeners.push(listener);
      return memory.subscribe(id, listener);
    },
    ping: () => memory.ping(),
    close: () => memory.close(),
  };
  return { store, listeners };
}

async function openStream(store: EventStore, lastEventId?: number, observer?: AppDeps['observer']) {
  const config = loadConfig({ DEMO: 'true' });
  const tokens = new TokenService({ secret: config.sessionJwtSecret, accessTtlSec: 900, refreshTtlSec: 3600, onceStore: new MemoryOnceStore() });
  const deps = streamDeps(config, tokens, { store, observer });
  const { token } = await tokens.issue('7', undefined);
  const controller = new AbortController();
  const query = lastEventId === undefined ? '' : `&lastEventId=${lastEventId}`;
  const res = await createApp(deps).request(`/api/events?token=${token}${query}`, { signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  return {
    /** Reads until `count` event ids have arrived; returns them. */
    async ids(count: number): Promise<number[]> {
      const found = () => [...text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
      while (found().length < count) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
      return found();
    },
    /** How many `reset` events arrived so far. */
    resets: () => text.split('event: reset\ndata: {}\n\n').length - 1,
    close: () => controller.abort(),
  };
}

const message = (id: number, text: string): StoredEvent => ({ id, ts: Date.now(), event: 'message', data: { id: `m${id}`, role: 'bot', text } });

describe('GET /api/events when the store restarted', () => {
  it('drops a repeated id, but sends an event whose id is known when ids started over', async () => {
    const { store, listeners } = tappedStore();
    for (const text of ['a', 'b', 'c']) await store.append('7', { event: 'message', data: { id: text, role: 'bot', text } });
    const stream = await openStream(store);
    expect(await stream.ids(3)).toEqual([1, 2, 3]);
    const [listener] = listeners;

    listener!(message(3, 'late copy of c'), false); // the same event by the live path: dropped
    listener!(message(1, 'first after the loss'), true);
    listener!(message(2, 'second after the loss'), false);
    expect(await stream.ids(5)).toEqual([1, 2, 3, 1, 2]);
    expect(stream.resets()).toBe(1); // once, before the first event of the new log
    stream.close();
  });

  it('a client whose Last-Event-ID the store never gave out (the BFF restarted) gets every event the store holds now', async () => {
    const { store } = tappedStore(); // a fresh store: the one that numbered the client's 57 events is gone
    await store.append('7', { event: 'message', data: { id: 'a', role: 'bot', text: 'after the restart' } });
    const stream = await openStream(store, 57);
    expect(await stream.ids(1)).toEqual([1]);
    expect(stream.resets()).toBe(1); // what the old store had and the client did not is gone: reload history
    await store.append('7', { event: 'message', data: { id: 'b', role: 'bot', text: 'live' } });
    expect(await stream.ids(2)).toEqual([1, 2]);
    stream.close();
  });

  it('measures delivery latency on live events only, not on replayed ones', async () => {
    const { store } = tappedStore();
    for (const text of ['old', 'older']) await store.append('7', { event: 'message', data: { id: text, role: 'bot', text } });
    const delivered: number[] = [];
    const stream = await openStream(store, undefined, { delivered: (ms) => delivered.push(ms) });
    expect(await stream.ids(2)).toEqual([1, 2]);
    expect(delivered).toEqual([]);
    await store.append('7', { event: 'message', data: { id: 'new', role: 'bot', text: 'new' } });
    expect(await stream.ids(3)).toEqual([1, 2, 3]);
    expect(delivered).toHaveLength(1);
    stream.close();
  });

  it('a client that is up to date gets nothing twice', async () => {
    const { store } = tappedStore();
    for (const text of ['a', 'b']) await store.append('7', { event: 'message', data: { id: text, role: 'bot', text } });
    const stream = await openStream(store, 2);
    await store.append('7', { event: 'message', data: { id: 'c', role: 'bot', text: 'c' } });
    expect(await stream.ids(1)).toEqual([3]);
    expect(stream.resets()).toBe(0);
    stream.close();
  });

  it('tells a client to reset when events after its Last-Event-ID are no longer kept', async () => {
    const { store } = tappedStore(10);
    for (let i = 1; i <= 12; i++) await store.append('7', { event: 'message', data: { id: `m${i}`, role: 'bot', text: `${i}` } });
    const behind = await openStream(store, 1); // 2 was dropped by retention
    expect(await behind.ids(10)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(behind.resets()).toBe(1);
    behind.close();
    const justInTime = await openStream(store, 2); // 3 is the oldest kept: nothing missed
    expect(await justInTime.ids(10)).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(justInTime.resets()).toBe(0);
    justInTime.close();
  });
});
