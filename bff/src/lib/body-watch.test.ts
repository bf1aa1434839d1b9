import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BodyWatch } from './body-watch.js';

/** A request stand-in: all the watch does with it is `destroy()` it. */
const request = () => Object.assign(new EventEmitter(), { destroy: vi.fn() }) as unknown as IncomingMessage & { destroy: ReturnType<typeof vi.fn> };

describe('BodyWatch', () => {
  afterEach(() => vi.useRealTimers());

  it('cuts a stalled read and a late one, and leaves the others and the finished ones alone', () => {
    vi.useFakeTimers();
    const watch = new BodyWatch(1000, () => Date.now());
    const [stalled, late, busy, finished] = [request(), request(), request(), request()];
    const cuts: string[] = [];
    watch.watch(stalled, { idleMs: 1500 }, (reason) => cuts.push(`stalled: ${reason}`));
    watch.watch(late, { totalMs: 2500 }, (reason) => cuts.push(`late: ${reason}`));
    const trickling = watch.watch(busy, { idleMs: 1500 }, (reason) => cuts.push(`busy: ${reason}`));
    watch.watch(finished, { idleMs: 1 }, (reason) => cuts.push(`finished: ${reason}`)).done();
    expect(watch.size).toBe(3);

    vi.advanceTimersByTime(1000);
    trickling.touch();
    vi.advanceTimersByTime(1000);
    expect(cuts).toEqual(['stalled: no body bytes for 1500 ms']);
    expect(stalled.destroy).toHaveBeenCalledOnce();
    trickling.touch();
    vi.advanceTimersByTime(1000);
    expect(cuts).toEqual(['stalled: no body bytes for 1500 ms', 'late: the body was not complete in time']);
    expect([late.destroy.mock.calls.length, busy.destroy.mock.calls.length, finished.destroy.mock.calls.length]).toEqual([1, 0, 0]);
    expect(watch.size).toBe(1);
    trickling.done();
    trickling.done(); // twice is harmless
    expect(watch.size).toBe(0);
  });

  it('takes reads out from the middle, the head and the tail of its list', () => {
    const watch = new BodyWatch(1000, () => 0);
    const reads = [0, 1, 2, 3, 4].map(() => watch.watch(request(), { idleMs: 10 }, () => {}));
    for (const i of [2, 4, 0, 3, 1]) {
      reads[i]!.done();
    }
    expect(watch.size).toBe(0);
    const again = watch.watch(request(), { idleMs: 10 }, () => {});
    expect(watch.size).toBe(1);
    again.done();
    expect(watch.size).toBe(0);
  });
});
