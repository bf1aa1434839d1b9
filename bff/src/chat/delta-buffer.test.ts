import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeltaBuffer } from './delta-buffer.js';

describe('DeltaBuffer', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('holds tiny deltas until the delay passes, then flushes them as one', async () => {
    const flushed: string[] = [];
    const buf = new DeltaBuffer(async (t) => void flushed.push(t), { maxChars: 64, maxDelayMs: 50 });
    buf.push('Hel');
    buf.push('lo ');
    await vi.advanceTimersByTimeAsync(49);
    expect(flushed).toEqual([]);
    buf.push('world');
    await vi.advanceTimersByTimeAsync(1);
    expect(flushed).toEqual(['Hello world']);
  });

  it('flushes at once when enough characters wait', async () => {
    const flushed: string[] = [];
    const buf = new DeltaBuffer(async (t) => void flushed.push(t), { maxChars: 8, maxDelayMs: 1000 });
    buf.push('abcd');
    buf.push('efgh');
    await vi.advanceTimersByTimeAsync(0);
    expect(flushed).toEqual(['abcdefgh']);
    buf.push('i');
    await buf.close();
    expect(flushed).toEqual(['abcdefgh', 'i']);
  });

  it('keeps order when a flush is slow, and close() waits for all of them', async () => {
    const flushed: string[] = [];
    let slow = true;
    let finishSlow!: () => void;
    const buf = new DeltaBuffer(
      async (t) => {
        if (slow) {
          slow = false;
          await new Promise<void>((r) => (finishSlow = r)); // the first flush takes until the test says
        }
        flushed.push(t);
      },
      { maxChars: 2, maxDelayMs: 50 },
    );
    buf.push('ab');
    buf.push('cd');
    buf.push('e');
    const closing = buf.close();
    let closed = false;
    void closing.then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(100);
    expect([flushed, closed]).toEqual([[], false]); // all behind the slow first flush
    finishSlow();
    await closing;
    expect(flushed).toEqual(['ab', 'cd', 'e']);
  });

  it('reports a failed flush on the next push and on close', async () => {
    const buf = new DeltaBuffer(async () => Promise.reject(new Error('store down')), { maxChars: 1, maxDelayMs: 50 });
    buf.push('a');
    await vi.advanceTimersByTimeAsync(0);
    expect(() => buf.push('b')).toThrow('store down');
    await expect(buf.close()).rejects.toThrow('store down');
  });
});
