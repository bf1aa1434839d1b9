import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { EmailLedger } from '../../bff/src/ports/email-ledger.js';

/** Builds a fresh ledger (two handles on one deployment's ledger: two instances); `cleanup` releases it. */
export type MakeEmailLedger = () => Promise<{ ledgers: [EmailLedger, EmailLedger]; cleanup(): Promise<void> }>;

const unique = (label: string) => `${label}-${randomUUID()}`;
const T0 = Date.parse('2026-01-01T10:00:00.000Z');

/** Runs the `EmailLedger` contract (docs/api.md "Continuity by email") against one implementation. */
export function describeEmailLedgerContract(name: string, make: MakeEmailLedger): void {
  describe(`EmailLedger contract: ${name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });
    async function open(): Promise<[EmailLedger, EmailLedger]> {
      const { ledgers, cleanup } = await make();
      cleanups.push(cleanup);
      return ledgers;
    }

    it('merges notes into one recipient and knows nothing of another conversation', async () => {
      const [ledger] = await open();
      const c = unique('c');
      expect(await ledger.recipient(c)).toBeUndefined();
      await ledger.note(c, { pageUrl: 'https://shop.example/boots', locale: 'de' }, 60_000);
      await ledger.note(c, { email: 'ada@example.com', locale: undefined }, 60_000);
      await ledger.note(c, { mailedUpTo: 7 }, 60_000);
      expect(await ledger.recipient(c)).toEqual({ pageUrl: 'https://shop.example/boots', locale: 'de', email: 'ada@example.com', mailedUpTo: 7 });
      expect(await ledger.recipient(unique('c'))).toBeUndefined();
    });

    it('tells open streams from closed ones, on either instance, and keeps the latest close', async () => {
      const [a, b] = await open();
      const c = unique('c');
      expect(await b.presence(c, T0)).toEqual({});
      await a.streamOpened(c, 's1', T0 + 60_000);
      await b.streamOpened(c, 's2', T0 + 30_000);
      expect(await b.presence(c, T0)).toEqual({ openUntil: T0 + 60_000 });
      await a.streamClosed(c, 's1', T0 + 5_000);
      expect(await b.presence(c, T0 + 6_000)).toEqual({ openUntil: T0 + 30_000, leftAt: T0 + 5_000 });
      await b.streamClosed(c, 's2', T0 + 4_000);
      expect(await a.presence(c, T0 + 6_000)).toEqual({ leftAt: T0 + 5_000 });
    });

    it('counts a stream past its end as closed (an instance that died holding it)', async () => {
      const [a, b] = await open();
      const c = unique('c');
      await a.streamOpened(c, 's1', T0 + 10_000);
      expect((await b.presence(c, T0 + 9_999)).openUntil).toBe(T0 + 10_000);
      expect(await b.presence(c, T0 + 10_000)).toEqual({});
    });

    it('hands each due conversation to one caller only, the earliest asked-for time kept', async () => {
      const [a, b] = await open();
      const [c1, c2, c3] = [unique('c'), unique('c'), unique('c')];
      await a.schedule(c1, T0 + 1_000);
      await b.schedule(c1, T0 + 5_000); // later: the earlier stays
      await a.schedule(c2, T0 + 3_000);
      await b.schedule(c3, T0 + 9_000);
      expect(await a.takeDue(T0, 10)).toEqual([]);
      const [first, second] = await Promise.all([a.takeDue(T0 + 4_000, 10), b.takeDue(T0 + 4_000, 10)]);
      expect([...first, ...second].sort()).toEqual([c1, c2].sort());
      expect(await b.takeDue(T0 + 4_000, 10)).toEqual([]);
      await a.schedule(c3, T0 + 2_000); // sooner: moved up
      expect(await b.takeDue(T0 + 4_000, 10)).toEqual([c3]);
    });

    it('grants the send slot once per interval, across instances, and says when it frees', async () => {
      const [a, b] = await open();
      const c = unique('c');
      const claims = await Promise.all([a.claimSend(c, T0, 900_000), b.claimSend(c, T0, 900_000)]);
      expect(claims.filter((claim) => claim.granted)).toHaveLength(1);
      expect(claims.find((claim) => !claim.granted)).toEqual({ granted: false, retryAt: T0 + 900_000 });
      expect(await b.claimSend(c, T0 + 899_999, 900_000)).toEqual({ granted: false, retryAt: T0 + 900_000 });
      expect(await b.claimSend(c, T0 + 900_000, 900_000)).toEqual({ granted: true });
      expect(await a.claimSend(unique('c'), T0, 900_000)).toEqual({ granted: true });
    });
  });
}
