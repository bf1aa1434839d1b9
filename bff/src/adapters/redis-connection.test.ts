import { describe, expect, it } from 'vitest';
import { createRedisAdapters } from './redis.js';

const RETENTION = { maxEvents: 10, maxAgeMs: 1000, dedupTtlMs: 1000 };

describe('a Redis that cannot be reached at start-up', () => {
  it('fails with store_unavailable naming the address it tried, never the password of its URL', async () => {
    const err = (await createRedisAdapters('redis://parley:s3cret@127.0.0.1:1', RETENTION).catch((e: unknown) => e)) as Error & { code: string };
    expect(err).toMatchObject({ code: 'store_unavailable', message: 'Event store unavailable: Redis at 127.0.0.1:1 cannot be reached' });
    expect(String(err)).not.toContain('s3cret');
  });

  it('names every seed node of a cluster', async () => {
    const nodes = [{ host: '127.0.0.1', port: 1 }, { host: '127.0.0.1', port: 2 }];
    const err = (await createRedisAdapters({ clusterNodes: nodes }, RETENTION).catch((e: unknown) => e)) as Error;
    expect(err.message).toBe('Event store unavailable: Redis at 127.0.0.1:1, 127.0.0.1:2 cannot be reached');
  });
});
