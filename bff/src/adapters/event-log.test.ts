import { describe, expect, it } from 'vitest';
import { EventLog } from './event-log.js';

/** A log of events "e1".."e{n}", event `i` at time `i`. */
function logOf(n: number): EventLog {
  const log = new EventLog();
  for (let i = 1; i <= n; i++) log.append('message', { id: `e${i}`, role: 'bot', text: `e${i}` }, i);
  return log;
}

const ids = (log: EventLog, from: number, count: number) => log.slice(from, count, 1000 + from).map((e) => [e.id, (e.data as { id: string }).id, e.ts]);

describe('EventLog', () => {
  it('hands out any run of events, across its segments (8, 16, 32, …), numbered from the id given', () => {
    const log = logOf(300); // segments of 8 + 16 + 32 + 64 + 128 + 128
    expect(log.size).toBe(300);
    expect(ids(log, 0, 2)).toEqual([
      [1000, 'e1', 1],
      [1001, 'e2', 2],
    ]);
    expect(ids(log, 6, 4)).toEqual([
      [1006, 'e7', 7],
      [1007, 'e8', 8],
      [1008, 'e9', 9],
      [1009, 'e10', 10],
    ]);
    const tail = log.slice(250, 100, 1);
    expect(tail).toHaveLength(50);
    expect(tail.map((e) => (e.data as { id: string }).id)).toEqual(Array.from({ length: 50 }, (_, i) => `e${251 + i}`));
    expect(log.slice(300, 10, 1)).toEqual([]);
  });

  it('drops the oldest across segment ends, and starts afresh once empty', () => {
    const log = logOf(30);
    for (let i = 0; i < 25; i++) log.dropOldest(); // past the 8 and the 16
    expect(log.size).toBe(5);
    expect(log.oldestTime()).toBe(26);
    expect(ids(log, 0, 10).map(([, id]) => id)).toEqual(['e26', 'e27', 'e28', 'e29', 'e30']);
    log.append('message', { id: 'e31', role: 'bot', text: 'e31' }, 31);
    expect(ids(log, 4, 10).map(([, id]) => id)).toEqual(['e30', 'e31']);
    for (let i = 0; i < 6; i++) log.dropOldest();
    expect(log.size).toBe(0);
    expect(log.oldestTime()).toBe(Infinity);
    expect(log.slice(0, 10, 1)).toEqual([]);
    log.append('state', { state: 'active' }, 40);
    expect(log.slice(0, 10, 7)).toEqual([{ event: 'state', data: { state: 'active' }, id: 7, ts: 40 }]);
  });

  it('keeps a window of the newest events as it rolls over many segments', () => {
    const log = new EventLog();
    for (let i = 1; i <= 5000; i++) {
      log.append('message', { id: `e${i}`, role: 'bot', text: '' }, i);
      if (log.size > 1000) log.dropOldest();
    }
    expect(log.size).toBe(1000);
    expect(log.oldestTime()).toBe(4001);
    const all = log.slice(0, 1000, 4001);
    expect(all.map((e) => e.ts)).toEqual(Array.from({ length: 1000 }, (_, i) => 4001 + i));
    expect(all.every((e) => e.id === e.ts)).toBe(true);
  });
});
