import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisAdapters, type RedisAdapters } from '../../bff/src/adapters/redis.js';
import { AuthError } from '../../bff/src/errors.js';
import { TokenService } from '../../bff/src/lib/tokens.js';
import { skipRedisTests, startRedisServer, type TestRedis } from './redis-server.js';

/**
 * On a real redis-server: a reused refresh token ends its whole chain with a
 * bounded number of Redis commands, counted by the server itself (INFO commandstats), not by a
 * wrapper around the adapter.
 */
describe.skipIf(skipRedisTests)('refresh-token reuse on Redis', () => {
  let server: TestRedis;
  let admin: Redis;
  let adapters: RedisAdapters;

  beforeAll(async () => {
    server = await startRedisServer();
    admin = new Redis(server.url, { lazyConnect: true });
    await admin.connect();
    adapters = await createRedisAdapters(server.url, { maxEvents: 100, maxAgeMs: 3_600_000, dedupTtlMs: 3_600_000 }, { prefix: 'chain:' });
  });

  afterAll(async () => {
    await adapters?.close();
    admin?.disconnect();
    await server?.stop();
  });

  /** Commands the server ran since the last CONFIG RESETSTAT, leaving out our own INFO and RESETSTAT. */
  async function commandsRun(): Promise<number> {
    const info = await admin.info('commandstats');
    let total = 0;
    for (const m of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) {
      if (m[1] !== 'info' && m[1] !== 'config|resetstat' && m[1] !== 'config') total += Number(m[2]);
    }
    return total;
  }

  async function code(p: Promise<unknown>): Promise<string | undefined> {
    try {
      await p;
      return undefined;
    } catch (err) {
      if (err instanceof AuthError) return err.code;
      throw err;
    }
  }

  it('revokes a chain of 500 refreshes with at most 20 commands, and every token of it is dead', async () => {
    const tokens = new TokenService({ secret: 'r'.repeat(40), accessTtlSec: 900, refreshTtlSec: 3600, onceStore: adapters.onceStore });
    const first = await tokens.issue('1001', undefined);
    let live = first;
    for (let i = 0; i < 500; i++) live = await tokens.refresh(live.refreshToken, undefined);

    await admin.config('RESETSTAT');
    expect(await code(tokens.refresh(first.refreshToken, undefined))).toBe('refresh_token_reused');
    const ran = await commandsRun();
    // The counter sees the reuse check itself (a silent counter would prove nothing).
    expect(ran).toBeGreaterThan(0);
    expect(ran).toBeLessThanOrEqual(20);

    expect(await code(tokens.refresh(live.refreshToken, undefined))).toBe('refresh_token_reused');
    expect(await code(tokens.verifyAccess(live.token, undefined))).toBe('invalid_token');
  });
});
