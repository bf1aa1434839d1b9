import { afterEach, describe, expect, it, vi } from 'vitest';
import { newRequestId } from './request-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The Unix ms a UUIDv7 carries. */
const msOf = (id: string) => parseInt(id.slice(0, 8) + id.slice(9, 13), 16);

describe('newRequestId', () => {
  afterEach(() => vi.useRealTimers());

  it('is a UUIDv7 carrying the time it was made', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 25, 12, 0, 0, 5), toFake: ['Date'] });
    const id = newRequestId();
    expect(id).toMatch(UUID_V7);
    expect(msOf(id)).toBe(Date.UTC(2026, 10, 25, 12, 0, 0, 5));
  });

  it('never repeats and sorts in the order made, past 4,096 ids in one millisecond and when the clock steps back', () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 25, 13, 0, 0, 0), toFake: ['Date'] });
    const ids = Array.from({ length: 10_000 }, () => newRequestId());
    vi.setSystemTime(Date.UTC(2026, 10, 25, 12, 59, 59, 0)); // a second back
    ids.push(...Array.from({ length: 100 }, () => newRequestId()));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids) expect(id).toMatch(UUID_V7);
    // 10,100 ids at one clock reading: the time field ran ahead by whole milliseconds only.
    expect(msOf(ids.at(-1)!) - Date.UTC(2026, 10, 25, 13, 0, 0, 0)).toBe(Math.floor(10_099 / 4096));
  });
});
