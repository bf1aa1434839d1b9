import { describe, expect, it } from 'vitest';
import { MemoryOnceStore } from './memory-limits.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('MemoryOnceStore', () => {
  it("forgets a one-day key after a day, though a week-long key came before it", async () => {
    let now = 1_000_000;
    const store = new MemoryOnceStore(() => now);
    await store.claim('refresh:a', 7 * DAY);
    await store.mark('sent:c:1', DAY);
    expect(store.size).toBe(2);
    now += DAY + 1;
    expect(await store.has('sent:c:1')).toBe(false);
    expect(store.size).toBe(1);
    expect(await store.has('refresh:a')).toBe(true);
  });

  it('holds a key at most twice its TTL behind longer ones of its tier, and keeps a few queues for many TTLs', async () => {
    let now = 0;
    const store = new MemoryOnceStore(() => now);
    // Tickets: each TTL a little different, as each follows its token's expiry.
    for (let i = 0; i < 1000; i++) await store.claim(`ticket:${i}`, 60_000 + i * 37);
    await store.claim('short', 40_000);
    now = 2 * 60_000 + 1000 * 37 + 1;
    expect(store.size).toBe(0);
    expect(await store.claim('short', 40_000)).toBe(true);
  });

  it('claims once until the TTL passes, and again after', async () => {
    let now = 0;
    const store = new MemoryOnceStore(() => now);
    expect(await store.claim('k', 1000)).toBe(true);
    expect(await store.claim('k', 1000)).toBe(false);
    now = 1001;
    expect(await store.claim('k', 1000)).toBe(true);
  });
});

describe('MemoryOnceStore, a key marked again', () => {
  it('lives by its latest TTL, shorter or longer', async () => {
    let now = 0;
    const store = new MemoryOnceStore(() => now);
    await store.mark('ticket-live:t', 15 * 60_000);
    await store.mark('ticket-live:t', 5_000); // the stream closed: a short grace
    now = 6_000;
    expect(await store.has('ticket-live:t')).toBe(false);
    await store.mark('ticket-live:t', 15 * 60_000);
    now = 60_000;
    expect(await store.has('ticket-live:t')).toBe(true);
  });
});
