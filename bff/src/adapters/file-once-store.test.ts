import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileOnceStore } from './file-once-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-once-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('FileOnceStore', () => {
  it('a key claimed before a restart stays claimed after it; other keys are still free', async () => {
    const path = join(dir, 'spent');
    const before = await FileOnceStore.open(path);
    expect(await before.claim('refresh:a', 60_000)).toBe(true);
    expect(await before.claim('refresh:a', 60_000)).toBe(false);
    await before.close();

    const after = await FileOnceStore.open(path);
    expect(await after.claim('refresh:a', 60_000)).toBe(false);
    expect(await after.claim('refresh:b', 60_000)).toBe(true);
    await after.close();
  });

  it('forgets expired claims when it starts, and skips a line cut short by a crash', async () => {
    const path = join(dir, 'spent');
    let now = 1_000_000;
    const before = await FileOnceStore.open(path, () => now);
    await before.claim('short', 1_000);
    await before.claim('long', 60_000);
    await before.close();
    await appendFile(path, '[1061000,"torn');

    now += 2_000;
    const after = await FileOnceStore.open(path, () => now);
    expect(await readFile(path, 'utf8')).toBe('[1060000,"long"]\n');
    expect(await after.claim('short', 1_000)).toBe(true);
    expect(await after.claim('long', 1_000)).toBe(false);
    await after.close();
  });

  it('two stores may open one file at the same time', async () => {
    const path = join(dir, 'spent');
    const stores = await Promise.all([FileOnceStore.open(path), FileOnceStore.open(path)]);
    expect(await stores[0].claim('k', 60_000)).toBe(true);
    await Promise.all(stores.map((s) => s.close()));
  });

  it('of two claims of one key at the same time, one wins', async () => {
    const store = await FileOnceStore.open(join(dir, 'spent'));
    const results = await Promise.all([store.claim('k', 60_000), store.claim('k', 60_000)]);
    expect(results.sort()).toEqual([false, true]);
    await store.close();
  });

  it('refuses to answer a claim it could not write down', async () => {
    const store = await FileOnceStore.open(join(dir, 'spent'));
    await store.close(); // the file is closed: every append fails
    await expect(store.claim('k', 60_000)).rejects.toMatchObject({ code: 'store_unavailable' });
  });
});
