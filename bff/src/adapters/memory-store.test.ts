import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../shared/types.js';
import { MemoryEventStore } from './memory-store.js';

const message = (text: string): StreamEvent => ({ event: 'message', data: { id: text, role: 'bot', text } });

describe('MemoryEventStore sweep', () => {
  it('forgets idle conversations whose events all expired, keeps the rest', async () => {
    let now = 1_000_000;
    const store = new MemoryEventStore({ maxEvents: 10, maxAgeMs: 60_000, dedupTtlMs: 60_000 }, () => now);
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
