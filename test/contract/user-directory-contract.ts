import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { UserDirectory } from '../../bff/src/ports/user-directory.js';

/** Builds a fresh, empty directory reading time from `now`; `cleanup` releases it. */
export type MakeUserDirectory = (now: () => number) => Promise<{ users: UserDirectory; cleanup(): Promise<void> }>;

const unique = (label: string) => `${label}-${randomUUID()}`;

/** Runs the `UserDirectory` contract (docs/api.md "Signed-in users") against one implementation. */
export function describeUserDirectoryContract(name: string, make: MakeUserDirectory): void {
  describe(`UserDirectory contract: ${name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });
    let clock = Date.parse('2026-01-01T10:00:00.000Z');
    async function open(): Promise<UserDirectory> {
      const { users, cleanup } = await make(() => clock);
      cleanups.push(cleanup);
      return users;
    }

    it('knows nothing of a user or conversation never bound', async () => {
      const users = await open();
      expect(await users.list(unique('u'))).toEqual([]);
      expect(await users.activeOf(unique('u'))).toBeUndefined();
      expect(await users.ownerOf(unique('c'))).toBeUndefined();
    });

    it('binds a conversation to a user: owner, active one and a listed entry', async () => {
      const users = await open();
      const [ada, c1] = [unique('ada'), unique('c')];
      expect(await users.bind(ada, c1, 'Where is my order?')).toBe(true);
      expect(await users.ownerOf(c1)).toBe(ada);
      expect(await users.activeOf(ada)).toBe(c1);
      expect(await users.list(ada)).toEqual([{ sessionId: c1, title: 'Where is my order?', state: 'open', updatedAt: new Date(clock).toISOString() }]);
    });

    it('the first binding wins: another user cannot take a conversation, and nothing of theirs changes', async () => {
      const users = await open();
      const [ada, bob, c1] = [unique('ada'), unique('bob'), unique('c')];
      await users.bind(ada, c1, 'Ada’s');
      expect(await users.bind(bob, c1, 'Bob’s')).toBe(false);
      expect(await users.ownerOf(c1)).toBe(ada);
      expect(await users.list(bob)).toEqual([]);
      expect(await users.activeOf(bob)).toBeUndefined();
      expect((await users.list(ada))[0]?.title).toBe('Ada’s');
      // Binding again to the same user is harmless and keeps the first title.
      expect(await users.bind(ada, c1, 'again')).toBe(true);
      expect(await users.list(ada)).toHaveLength(1);
      expect((await users.list(ada))[0]?.title).toBe('Ada’s');
    });

    it('lists newest first; activity moves a conversation up and makes it active', async () => {
      const users = await open();
      const [ada, c1, c2] = [unique('ada'), unique('c'), unique('c')];
      await users.bind(ada, c1, 'first');
      clock += 1000;
      await users.bind(ada, c2, 'second');
      expect((await users.list(ada)).map((c) => c.sessionId)).toEqual([c2, c1]);
      expect(await users.activeOf(ada)).toBe(c2);
      clock += 1000;
      await users.touch(ada, c1);
      expect((await users.list(ada)).map((c) => c.sessionId)).toEqual([c1, c2]);
      expect((await users.list(ada))[0]?.updatedAt).toBe(new Date(clock).toISOString());
      expect(await users.activeOf(ada)).toBe(c1);
    });

    it('records state; an archived conversation stays listed but is no longer active', async () => {
      const users = await open();
      const [ada, c1, c2] = [unique('ada'), unique('c'), unique('c')];
      await users.bind(ada, c1, 'old');
      clock += 1000;
      await users.bind(ada, c2, 'new');
      await users.touch(ada, c2, 'escalated');
      expect((await users.list(ada))[0]).toMatchObject({ sessionId: c2, state: 'escalated' });
      await users.touch(ada, c2, 'archived');
      expect(await users.activeOf(ada)).toBeUndefined();
      expect((await users.list(ada)).find((c) => c.sessionId === c2)?.state).toBe('archived');
      // Archiving a conversation that is not the active one leaves the active one alone.
      clock += 1000;
      await users.touch(ada, c1);
      await users.touch(ada, c2, 'archived');
      expect(await users.activeOf(ada)).toBe(c1);
    });

    it('touch ignores a conversation that is not the user’s', async () => {
      const users = await open();
      const [ada, bob, c1] = [unique('ada'), unique('bob'), unique('c')];
      await users.bind(ada, c1, 'Ada’s');
      await users.touch(bob, c1, 'archived');
      expect(await users.list(bob)).toEqual([]);
      expect(await users.activeOf(bob)).toBeUndefined();
      expect((await users.list(ada))[0]?.state).toBe('open');
    });

    it('keeps user ids apart, whatever characters they hold', async () => {
      const users = await open();
      const odd = [`a}:active`, `{a}`, `ünï cødé ✓ ${randomUUID()}`];
      const base = unique('a');
      for (const [i, suffix] of odd.entries()) await users.bind(`${base}${suffix}`, `${base}-c${i}`, `t${i}`);
      for (const [i, suffix] of odd.entries()) {
        expect((await users.list(`${base}${suffix}`)).map((c) => c.sessionId)).toEqual([`${base}-c${i}`]);
      }
      expect(await users.list(base)).toEqual([]);
    });
  });
}
