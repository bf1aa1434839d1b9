import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, JWT_SECRET, WEBHOOK_SECRET } from '../helpers/bff.js';
import { openSse } from '../helpers/sse.js';
import { until } from '../helpers/wait.js';
import { startServer, type SpawnedServer } from '../helpers/server.js';
import { skipRedisTests, startRedisServer, type TestRedis } from './redis-server.js';

/**
 * The demo on Redis, restarted. The conversation log lives on in Redis while the
 * service simulator starts again in a new process: it must never give a new visitor the id (and so
 * the stored events) of an earlier visitor's conversation, and a returning visitor goes on.
 */
describe.skipIf(skipRedisTests)('the demo with REDIS_URL across a restart', () => {
  let redis: TestRedis;
  const running: SpawnedServer[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = await startRedisServer();
    env = { REDIS_URL: redis.url, SESSION_JWT_SECRET: JWT_SECRET, WEBHOOK_SECRET, SIM_REPLY_DELAY_MS: '5', SIM_DUPLICATE_RATE: '0', IDENTITY_SECRET: '' };
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop()));
    await redis?.stop();
  });
  const boot = async () => {
    const server = await startServer(env);
    running.push(server);
    return server;
  };
  const texts = async (base: string, token: string) => ((await call(base, 'GET', '/api/messages', { token })).body.items as Array<{ text?: string }>).map((m) => m.text);

  it('a new visitor never gets an earlier visitor’s conversation; a returning one continues', async () => {
    const before = await boot();
    const ada = (await call(before.url, 'POST', '/api/session', { body: { text: 'Private question from Ada' } })).body as { sessionId: string; token: string };
    const adaStream = await openSse(`${before.url}/api/events?token=${ada.token}`);
    await adaStream.next((e) => e.event === 'message' && JSON.parse(e.data).role === 'bot', 10_000);
    adaStream.close();
    await before.stop();

    const after = await boot();
    const ben = (await call(after.url, 'POST', '/api/session', { body: { text: 'Hello from Ben' } })).body as { sessionId: string; token: string };
    expect(ben.sessionId).not.toBe(ada.sessionId);
    // Ben's stream replays his own conversation's log only: nothing of Ada's.
    const benStream = await openSse(`${after.url}/api/events?token=${ben.token}`);
    await benStream.next((e) => e.event === 'message' && JSON.parse(e.data).role === 'bot', 10_000);
    expect(benStream.events.map((e) => e.data).join('\n')).not.toContain('Ada');
    benStream.close();

    // Ada comes back with her tokens from before the restart: her conversation goes on, answered.
    const sent = await call(after.url, 'POST', '/api/messages', { token: ada.token, body: { text: 'Still there?' } });
    expect(sent.status).toBe(202);
    const again = await openSse(`${after.url}/api/events?token=${ada.token}`);
    await again.next((e) => e.event === 'message' && JSON.parse(e.data).text === 'Still there?', 10_000);
    const answered = () => {
      const messages = again.events.filter((e) => e.event === 'message').map((e) => JSON.parse(e.data) as { role: string; text?: string });
      const asked = messages.findIndex((m) => m.text === 'Still there?');
      return asked >= 0 && messages.slice(asked + 1).some((m) => m.role === 'bot');
    };
    await until('the agent to answer Ada after the restart', answered, 10_000);
    again.close();
    expect(await texts(after.url, ada.token)).not.toContain('Hello from Ben');
  }, 90_000);
});
