import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/bff.js';
import type { SpawnedServer } from '../helpers/server.js';
import { conversation, nextText, startInstances, stream } from './cluster.js';
import { skipRedisTests, startRedisServer, type TestRedis } from './redis-server.js';

// The service accepts a message, and Redis dies before the BFF stores it: the browser must hear
// "sent" (resending would give the service the message twice), and the message must reach the
// conversation's log once Redis is back.
describe.skipIf(skipRedisTests)('a store failure after the service accepted a message', () => {
  let redis: TestRedis;
  let bff: SpawnedServer;
  let upstream: Server;
  const sends: Array<{ message: string; session?: string }> = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    // A stand-in for the service: takes sends, and kills Redis before answering the ones that ask for it.
    upstream = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', async () => {
        const body = JSON.parse(raw || '{}') as { message: string; session?: string };
        sends.push(body);
        if (body.message.includes('redis dies')) await redis.stop();
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ session: body.session ?? '424242' }));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    bff = (await startInstances(redis.url, 1, { UPSTREAM_BASE_URL: upstreamUrl, RATE_LIMIT_SESSIONS_PER_MIN: '1000' }))[0]!;
  });
  afterAll(async () => {
    await bff?.stop();
    upstream?.close();
    await redis?.stop();
  });

  /** Opens the conversation's stream until it replays `text` (the BFF reconnects to Redis, then repairs every 2 s). */
  async function untilStreamed(token: string, text: string): Promise<void> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const sse = await stream(bff.url, token);
      try {
        await nextText(sse, text, 2_500);
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      } finally {
        sse.close();
      }
    }
  }

  it('answers 202 for a message the service took, sends it once, and stores it when Redis is back', async () => {
    const c = await conversation();
    const res = await call(bff.url, 'POST', '/api/messages', { token: c.token, body: { text: 'redis dies now' }, headers: { origin: 'http://shop.test' } });
    expect(res.status).toBe(202);
    expect(sends.filter((s) => s.message === 'redis dies now')).toHaveLength(1);

    await redis.restart();
    await untilStreamed(c.token, 'redis dies now');
  });

  it('a first message the service took gives the browser its conversation, not an error and an orphan', async () => {
    const res = await call(bff.url, 'POST', '/api/session', { body: { text: 'hello, redis dies' }, headers: { origin: 'http://shop.test' } });
    expect(res.status).toBe(201);
    expect(res.body.sessionId).toBe('424242');
    expect(sends.filter((s) => s.message === 'hello, redis dies')).toHaveLength(1);
    await redis.restart();
    await untilStreamed(res.body.token, 'hello, redis dies');
  });
});
