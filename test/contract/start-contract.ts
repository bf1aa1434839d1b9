import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { StartRecords } from '../../bff/src/ports/start-records.js';
import { until } from '../helpers/wait.js';

export type MakeStartRecords = () => Promise<{ starts: StartRecords; cleanup: () => Promise<void> }>;

/** What every StartRecords adapter must do (chat/start-once.ts relies on it). */
export function describeStartRecordsContract(name: string, make: MakeStartRecords): void {
  describe(`StartRecords contract: ${name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });
    async function open(): Promise<StartRecords> {
      const { starts, cleanup } = await make();
      cleanups.push(cleanup);
      return starts;
    }
    const key = () => `start-${randomUUID()}`;

    it('claims a key once; a repeat sees it running, then what it made', async () => {
      const starts = await open();
      const k = key();
      expect(await starts.begin(k, 60_000)).toEqual({ status: 'claimed' });
      expect(await starts.begin(k, 60_000)).toEqual({ status: 'running' });
      await starts.finish(k, '123 escalated', 60_000);
      expect(await starts.begin(k, 60_000)).toEqual({ status: 'done', value: '123 escalated' });
      expect(await starts.begin(key(), 60_000)).toEqual({ status: 'claimed' });
    });

    it('lets exactly one of many concurrent begins claim a key', async () => {
      const starts = await open();
      const k = key();
      const all = await Promise.all(Array.from({ length: 20 }, () => starts.begin(k, 60_000)));
      expect(all.filter((r) => r.status === 'claimed')).toHaveLength(1);
      expect(all.filter((r) => r.status === 'running')).toHaveLength(19);
    });

    it('frees an abandoned start for the next begin, but never a finished one', async () => {
      const starts = await open();
      const k = key();
      await starts.begin(k, 60_000);
      await starts.abandon(k);
      expect(await starts.begin(k, 60_000)).toEqual({ status: 'claimed' });
      await starts.finish(k, '7', 60_000);
      await starts.abandon(k);
      expect(await starts.begin(k, 60_000)).toEqual({ status: 'done', value: '7' });
    });

    it('frees a start that never finished once its running time is over, and forgets a finished one after its ttl', async () => {
      const starts = await open();
      const k = key();
      await starts.begin(k, 50);
      // A begin that finds the start running or done changes nothing, so it can be asked until it claims.
      await until('the running time over', async () => (await starts.begin(k, 60_000)).status === 'claimed');
      await starts.finish(k, '9', 50);
      await until('the finished start forgotten', async () => (await starts.begin(k, 60_000)).status === 'claimed');
    });

    it('ends a finished start for good: begins see it ended, and no later finish or abandon brings it back', async () => {
      const starts = await open();
      const k = key();
      await starts.begin(k, 60_000);
      await starts.finish(k, '11 chain:abc', 60_000);
      await starts.end(k, 60_000);
      const all = await Promise.all(Array.from({ length: 5 }, () => starts.begin(k, 60_000)));
      expect(all).toEqual(Array.from({ length: 5 }, () => ({ status: 'ended' })));
      await starts.finish(k, '11 chain:abc', 60_000);
      await starts.abandon(k);
      expect(await starts.begin(k, 60_000)).toEqual({ status: 'ended' });
    });

    it('keeps a start ended while it runs from being finished, and forgets the end after its ttl', async () => {
      const starts = await open();
      const k = key();
      await starts.begin(k, 60_000);
      await starts.end(k, 50);
      await starts.finish(k, '12', 60_000);
      expect(await starts.begin(k, 60_000)).toEqual({ status: 'ended' });
      // Time is the subject (the end's 50 ms ttl), and asking earlier would claim the start: a fixed wait.
      await new Promise((r) => setTimeout(r, 120));
      expect(await starts.begin(k, 60_000)).toEqual({ status: 'claimed' });
    });
  });
}
