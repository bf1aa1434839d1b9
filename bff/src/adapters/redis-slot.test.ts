import { describe, expect, it } from 'vitest';
import { hashSlot } from './redis-slot.js';

describe('hashSlot', () => {
  // Answers of `CLUSTER KEYSLOT` on redis-server 7.0 (ioredis' copy differs on 'foo{}{bar}').
  it.each([
    ['123456789', 12739],
    ['foo', 12182],
    ['foo{}{bar}', 8363],
    ['foo{{bar}}zap', 4015],
    ['a{}', 6082],
    ['{a}', 15495],
    ['ünï{cödé}', 15029],
    ['parley:ev:{7}', 1716],
    ['parley:log:{42}', 8000],
    ['', 0],
  ])('%j is in slot %i', (key, slot) => {
    expect(hashSlot(key)).toBe(slot);
  });
});
