import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, postWebhook } from '../helpers/bff.js';
import type { SpawnedServer } from '../helpers/server.js';
import { conversation, drained, message, nextText, post, startInstances, stream, texts } from './cluster.js';
import { skipRedisTests, startRedisServer, type TestRedis } from './redis-server.js';

// Two real BFF processes of one deployment share one redis-server: whatever the first instance
// accepts, the second must serve, as behind a load balancer that picks either.
describe.skipIf(skipRedisTests)('two BFF processes on one Redis', () => {
  let redis: TestRedis;
  let a: SpawnedServer;
  let b: SpawnedServer;

  beforeAll(async () => {
    redis = await startRedisServer();
    [a, b] = (await startInstances(redis.url, 2, { RATE_LIMIT_SESSIONS_PER_MIN: '2' })) as [SpawnedServer, SpawnedServer];
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  it('delivers a webhook accepted by A to a stream open on B, in order', async () => {
    const c = await conversation();
    const onB = await stream(b.url, c.token);
    expect(onB.status).toBe(200);
    for (const label of ['one', 'two', 'three']) expect(await post(a.url, c.id, label)).toBe(200);
    await nextText(onB, 'three');
    expect(texts(onB.events)).toEqual(['one', 'two', 'three']);
    expect(onB.events.map((e) => Number(e.id))).toEqual([1, 2, 3]);
    onB.close();
  });

  it('resumes on B after Last-Event-ID from A: exactly the later events, in order, none twice', async () => {
    const c = await conversation();
    const onA = await stream(a.url, c.token);
    for (const label of ['p1', 'p2', 'p3']) expect(await post(a.url, c.id, label)).toBe(200);
    const last = await nextText(onA, 'p3');
    onA.close();

    // While the client is away, both instances accept events for it.
    for (const [server, label] of [[a, 'p4'], [b, 'p5'], [a, 'p6']] as const) expect(await post(server.url, c.id, label)).toBe(200);
    const onB = await stream(b.url, c.token, last.id);
    await nextText(onB, 'p6');
    // Live again: a later event follows the replay directly.
    expect(await post(a.url, c.id, 'p7')).toBe(200);
    await nextText(onB, 'p7');
    const got = await drained(onB, b.url, c.id);
    expect(texts(got)).toEqual(['p4', 'p5', 'p6', 'p7']);
    expect(got.map((e) => Number(e.id))).toEqual([4, 5, 6, 7]);
    onB.close();
  });

  it('delivers an event posted to A and to B (also at the same moment) once', async () => {
    const c = await conversation();
    const [onA, onB] = await Promise.all([stream(a.url, c.token), stream(b.url, c.token)]);
    expect(await postWebhook(a.url, message(c.id, 'dup-1'))).toEqual({ status: 200, body: { ok: true } });
    expect(await postWebhook(b.url, message(c.id, 'dup-1'))).toEqual({ status: 200, body: { ok: true, duplicate: true } });

    const race = await Promise.all(Array.from({ length: 12 }, (_, n) => postWebhook((n % 2 ? a : b).url, message(c.id, 'dup-2'))));
    expect(race.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(race.filter((r) => !r.body.duplicate)).toHaveLength(1);

    // Fan-out keeps append order, so once the marker is there any duplicate would be too.
    expect(await post(b.url, c.id, 'marker')).toBe(200);
    for (const sse of [onA, onB]) {
      await nextText(sse, 'marker');
      expect(texts(sse.events)).toEqual(['dup-1', 'dup-2', 'marker']);
      sse.close();
    }
  });

  it('accepts on B a token minted on A, and refuses on B a refresh token already spent on A (and the chain after it)', async () => {
    const c = await conversation();
    const rotated = await call(a.url, 'POST', '/api/token', { body: { refreshToken: c.refreshToken } });
    expect(rotated.status).toBe(200);

    const onB = await stream(b.url, rotated.body.token);
    expect(onB.status).toBe(200);
    expect(await post(a.url, c.id, 'for the new token')).toBe(200);
    await nextText(onB, 'for the new token');
    onB.close();

    // The refresh token A handed out is good on B.
    const onward = await call(b.url, 'POST', '/api/token', { body: { refreshToken: rotated.body.refreshToken } });
    expect(onward.status).toBe(200);
    const reused = await call(b.url, 'POST', '/api/token', { body: { refreshToken: c.refreshToken } });
    expect([reused.status, reused.body.error?.code]).toEqual([401, 'refresh_token_reused']);
    // A reuse spends every later token of its chain, also one issued by the other instance.
    const later = await call(a.url, 'POST', '/api/token', { body: { refreshToken: onward.body.refreshToken } });
    expect([later.status, later.body.error?.code]).toEqual([401, 'refresh_token_reused']);
  });

  it('shares the new-conversation rate limit: the third attempt across A and B is 429', async () => {
    // The limiter runs before the upstream call, so attempts count even though the upstream is down.
    const first = await call(a.url, 'POST', '/api/session', { body: { text: 'hi' } });
    const second = await call(b.url, 'POST', '/api/session', { body: { text: 'hi' } });
    for (const res of [first, second]) {
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(res.body.error.code).not.toBe('rate_limited');
    }
    for (const server of [a, b]) {
      const res = await call(server.url, 'POST', '/api/session', { body: { text: 'hi' } });
      expect([res.status, res.body.error?.code]).toEqual([429, 'rate_limited']);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});
