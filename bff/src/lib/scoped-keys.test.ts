import { describe, expect, it } from 'vitest';
import { ScopedKeys } from './scoped-keys.js';

describe('ScopedKeys', () => {
  it('remembers a key in its scope until it expires', () => {
    const keys = new ScopedKeys(100);
    keys.add('c1', 'a', 1000, 0);
    keys.add('c1', 'b', 2000, 0);
    expect([keys.has('c1', 'a', 999), keys.has('c2', 'a', 999), keys.has('c1', 'c', 999)]).toEqual([true, false, false]);
    expect([keys.has('c1', 'a', 1000), keys.has('c1', 'b', 1500)]).toEqual([false, true]);
    expect(keys.size).toBe(1);
  });

  it('keeps the same key in two scopes apart, whichever expires first', () => {
    const keys = new ScopedKeys(100);
    keys.add('c1', 'k', 1000, 0);
    expect(keys.has('c2', 'k', 10)).toBe(false);
    keys.add('c2', 'k', 2000, 10);
    expect([keys.has('c1', 'k', 20), keys.has('c2', 'k', 20), keys.has('c3', 'k', 20)]).toEqual([true, true, false]);
    // c1's key expires; c2's, kept under the joined name, lives on.
    expect([keys.has('c1', 'k', 1500), keys.has('c2', 'k', 1500)]).toEqual([false, true]);
    // Now the plain name is free again: a third scope takes it, and all stay apart.
    keys.add('c3', 'k', 3000, 1500);
    expect([keys.has('c1', 'k', 1600), keys.has('c2', 'k', 1600), keys.has('c3', 'k', 1600)]).toEqual([false, true, true]);
    expect([keys.has('c2', 'k', 2000), keys.has('c3', 'k', 2000)]).toEqual([false, true]);
    expect(keys.size).toBe(1);
  });

  it('drops the oldest keys beyond the bound, across both kinds of entry', () => {
    const keys = new ScopedKeys(3);
    keys.add('c1', 'a', 10_000, 0);
    keys.add('c2', 'a', 10_001, 1); // joined
    keys.add('c1', 'b', 10_002, 2);
    keys.add('c1', 'c', 10_003, 3); // one too many: c1/a, the oldest, goes
    expect([keys.has('c1', 'a', 4), keys.has('c2', 'a', 4), keys.has('c1', 'b', 4), keys.has('c1', 'c', 4)]).toEqual([false, true, true, true]);
    keys.add('c1', 'd', 10_004, 5); // now c2/a goes
    expect([keys.has('c2', 'a', 6), keys.has('c1', 'd', 6)]).toEqual([false, true]);
    expect(keys.size).toBe(3);
  });

  it('stays bounded and correct through many keys (the queue is compacted as it goes)', () => {
    const keys = new ScopedKeys(1000);
    for (let i = 0; i < 50_000; i++) {
      const scope = `c${i % 7}`;
      expect(keys.has(scope, `e${i}`, i)).toBe(false);
      keys.add(scope, `e${i}`, i + 1_000_000, i);
    }
    expect(keys.size).toBe(1000);
    // 49,000 is a multiple of 7: e49000 is c0's. The last thousand are kept, nothing older.
    expect([keys.has('c0', 'e49000', 50_000), keys.has('c1', 'e49000', 50_000), keys.has('c0', 'e48999', 50_000) || keys.has('c6', 'e48999', 50_000)]).toEqual([true, false, false]);
  });
});
