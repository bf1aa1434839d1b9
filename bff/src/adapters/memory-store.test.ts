import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../shared/types.js';
import { MemoryEventStore } from './memory-store.js';

const message = (text: string): StreamEvent => ({ event: 'message', data: { id: text, role: 'bot', text } });

describe('MemoryEventStore sweep', () => {
  it('forgets idle conversations whose events all expired, keeps the rest', async () => {
    let now = 1_000_000;
    const store = new MemoryEventStore({ maxEvents: 10, maxAgeMs: 60_000, dedupTtlMs: 60_000 }, { now: () => now });
    await store.append('idle', message('old'), { dedupKey: 'evt-1' });
    await store.append('watched', message('old'));
    const unsubscribe = await store.subscribe('watched', () => {});
    now += 30_000;
    await store.append('recent', message('new'));
    now += 40_000; // 'idle' and 'watched' are 70 s old now, 'recent' 40 s

    store.sweep();
    expect(await store.lastId('idle')).toBe(0);
    expect(await store.lastId('watched')).toBe(1); // a listener keeps the conversation (and its numbering)
    expect(await store.read('watched', 0, 10)).toEqual([]);
    expect(await store.lastId('recent')).toBe(1);
    expect(await store.read('recent', 0, 10)).toHaveLength(1);
    // The dedup key expired with its event: a redelivery now is stored again.
    expect((await store.append('idle', message('old'), { dedupKey: 'evt-1' })).status).toBe('stored');
    unsubscribe();
    await store.close();
  });
});

describe('MemoryEventStore retention', () => {
  it('drops by count at each append, by age at each read and sweep, and delivers only to subscribers', async () => {
    let now = 1_000_000;
    const store = new MemoryEventStore({ maxEvents: 3, maxAgeMs: 60_000, dedupTtlMs: 60_000 }, { now: () => now });
    for (let i = 1; i <= 5; i++) await store.append('c', message(`m${i}`));
    expect((await store.read('c', 0, 10)).map((e) => e.id)).toEqual([3, 4, 5]); // the count, at once

    now += 61_000;
    await store.append('c', message('m6')); // the three before it are past the age now
    const seen: number[] = [];
    const unsubscribe = await store.subscribe('c', (e) => seen.push(e.id));
    expect((await store.read('c', 0, 10)).map((e) => e.id)).toEqual([6]); // a read never returns an expired event
    await store.append('c', message('m7'));
    expect(seen).toEqual([7]);
    unsubscribe();
    await store.append('c', message('m8'));
    expect(seen).toEqual([7]);

    now += 61_000;
    store.sweep();
    expect(await store.lastId('c')).toBe(0); // no event left and no subscriber: forgotten
    await store.close();
  });
});

describe('MemoryEventStore with time-based ids', () => {
  it('numbers a conversation from its start time, so a store started later gives out only greater ids', async () => {
    const retention = { maxEvents: 10, maxAgeMs: 60_000, dedupTtlMs: 60_000 };
    let now = 1_700_000_000_000;
    const before = new MemoryEventStore(retention, { now: () => now, timeBasedIds: true });
    for (let i = 0; i < 5; i++) await before.append('c', message(`old ${i}`));
    const oldIds = (await before.read('c', 0, 10)).map((e) => e.id);
    expect(oldIds).toEqual([0, 1, 2, 3, 4].map((i) => now * 100 + 1 + i)); // dense, in order
    await before.close();

    now += 1; // a restart one millisecond later
    const after = new MemoryEventStore(retention, { now: () => now, timeBasedIds: true });
    expect(await after.lastId('c')).toBe(0); // nothing given out yet
    for (let i = 0; i < 10; i++) await after.append('c', message(`new ${i}`));
    const newer = await after.read('c', oldIds.at(-1)!, 10);
    expect(newer.map((e) => e.data)).toEqual([...Array(10).keys()].map((i) => message(`new ${i}`).data));
    expect(await after.lastId('c')).toBe(now * 100 + 10);
    await after.close();
  });
});
