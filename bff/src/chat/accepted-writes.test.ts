import { describe, expect, it } from 'vitest';
import { AcceptedWrites } from './accepted-writes.js';

const quiet = { warn: () => {}, error: () => {}, info: () => {} };

/** A write that fails `failures` times, then succeeds; counts attempts. */
function flaky(failures: number) {
  const w = { attempts: 0, done: false, run: async () => {
    w.attempts++;
    if (w.attempts <= failures) throw new Error('store down');
    w.done = true;
  } };
  return w;
}

describe('AcceptedWrites', () => {
  it('retries a failing write while the request is open and reports it written', async () => {
    const writes = new AcceptedWrites({ logger: quiet, delaysMs: [1, 1] });
    const w = flaky(2);
    expect(await writes.write('m', w.run)).toBe(true);
    expect([w.attempts, w.done, writes.size]).toEqual([3, true, 0]);
  });

  it('keeps a write the store still refuses and makes it once the store is back, in order', async () => {
    const writes = new AcceptedWrites({ logger: quiet, delaysMs: [1], repairEveryMs: 10 });
    const order: string[] = [];
    let down = true;
    const write = (name: string) => async () => {
      if (down) throw new Error('store down');
      order.push(name);
    };
    expect(await writes.write('first', write('first'))).toBe(false);
    expect(await writes.write('second', write('second'))).toBe(false);
    expect(writes.size).toBe(2);
    down = false;
    await new Promise((r) => setTimeout(r, 60));
    expect([order, writes.size]).toEqual([['first', 'second'], 0]);
    await writes.close();
  });

  it('drops the oldest kept write past maxPending, with an error line', async () => {
    const errors: string[] = [];
    const writes = new AcceptedWrites({ logger: { ...quiet, error: (m: string) => void errors.push(m) }, delaysMs: [], maxPending: 1, repairEveryMs: 60_000 });
    const failing = async () => {
      throw new Error('down');
    };
    await writes.write('a', failing);
    await writes.write('b', failing);
    expect([writes.size, errors]).toEqual([1, ['accepted write dropped: repair queue full']]);
    await writes.close();
  });
});
