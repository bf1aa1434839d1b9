import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, JWT_SECRET } from '../helpers/bff.js';
import { startServer, type SpawnedServer } from '../helpers/server.js';
import { openSse } from '../helpers/sse.js';
import { skipRedisTests, startRedisServer, type TestRedis } from './redis-server.js';

const KEY = 'sk-model-instances';

// Model mode on two BFF processes of one deployment (Redis, no service host: a model-only
// deployment), against the gateway simulator of a third process. A question that lands on B
// while A still streams the answer to the question before it must wait for that answer.
describe.skipIf(skipRedisTests)('model mode on two instances', () => {
  let redis: TestRedis;
  let gateway: SpawnedServer;
  let a: SpawnedServer;
  let b: SpawnedServer;
  const sim = (method: string, path: string, body?: unknown) => call(gateway.url, method, `/sim/__gateway${path}`, body === undefined ? {} : { body });

  beforeAll(async () => {
    redis = await startRedisServer();
    gateway = await startServer({ CHAT_MODE: 'model', GATEWAY_API_KEY: KEY });
    const env = {
      REDIS_URL: redis.url,
      CHAT_MODE: 'model',
      GATEWAY_BASE_URL: `${gateway.url}/sim`,
      GATEWAY_API_KEY: KEY,
      GATEWAY_MODEL: 'mistral/mistral-small',
      SESSION_JWT_SECRET: JWT_SECRET,
      ALLOWED_ORIGINS: 'http://shop.test',
    };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), gateway?.stop()]);
    await redis?.stop();
  });

  it('answers in order: the reply on B waits for A\'s answer and sends it as history', async () => {
    await sim('POST', '/pace', { chunkDelayMs: 40 }); // A's answer takes a while to stream
    const first = await call(a.url, 'POST', '/api/session', { body: { text: 'First question' } });
    expect(first.status).toBe(201);
    const token = first.body.token as string;
    const sse = await openSse(`${b.url}/api/events?token=${token}`);
    expect((await call(b.url, 'POST', '/api/messages', { token, body: { text: 'Second question' } })).status).toBe(202);

    const bots = () => sse.events.filter((e) => e.event === 'message' && JSON.parse(e.data).role === 'bot');
    await sse.next(() => bots().length === 2, 30_000);
    const requests = ((await sim('GET', '/requests')).body.requests as Array<{ path: string; messages?: Array<{ role: string; content: string }> }>).filter(
      (r) => r.path === '/chat/completions',
    );
    expect(requests).toHaveLength(2);
    const firstAnswer = JSON.parse(bots()[0]!.data).text as string;
    expect(requests[1]!.messages!.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(requests[1]!.messages![1]!.content).toBe(firstAnswer);
    expect(requests[1]!.messages![2]!.content).toBe('Second question');
    sse.close();
  });

  it('stops a reply streaming on A when the stop lands on B (signalled through Redis)', async () => {
    await sim('POST', '/pace', { chunkDelayMs: 60 });
    await sim('DELETE', '/requests');
    const first = await call(a.url, 'POST', '/api/session', { body: { text: 'A long answer, please' } });
    const token = first.body.token as string;
    const sse = await openSse(`${a.url}/api/events?token=${token}`);
    await sse.next((e) => e.event === 'message_delta', 10_000);
    const stopAt = Date.now();
    expect((await call(b.url, 'POST', '/api/stop', { token })).status).toBe(202);
    const stopped = JSON.parse((await sse.next((e) => e.event === 'message' && JSON.parse(e.data).role === 'bot', 2_000)).data);
    expect(Date.now() - stopAt).toBeLessThan(500);
    expect(stopped.stopped).toBe(true);
    const [request] = ((await sim('GET', '/requests')).body.requests as Array<{ path: string; closedByClient?: boolean }>).filter((r) => r.path === '/chat/completions');
    expect(request!.closedByClient).toBe(true);
    sse.close();
  });
});
