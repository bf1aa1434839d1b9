import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, JWT_SECRET, WEBHOOK_SECRET } from '../helpers/bff.js';
import { startServer, type SpawnedServer } from '../helpers/server.js';
import { openSse } from '../helpers/sse.js';
import { skipRedisTests, startRedisServer, type TestRedis } from './redis-server.js';

const IDENTITY_SECRET = 'identity-secret-for-tests-0123456789';
const UPSTREAM = { UPSTREAM_ACCESS_TOKEN: 'test-upstream-access-token', AGENT_BOT_KEY: 'test-bot-key' };

const identityToken = (sub: string) =>
  new SignJWT({ name: 'Ada' }).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setAudience('parley-identity').setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(IDENTITY_SECRET));

// One signed-in user on two BFF processes of one deployment (a laptop served by A, a phone by B):
// the user → conversations mapping lives in Redis, so both see the same conversations.
describe.skipIf(skipRedisTests)('the same user on two instances', () => {
  let redis: TestRedis;
  let service: SpawnedServer;
  let a: SpawnedServer;
  let b: SpawnedServer;

  beforeAll(async () => {
    redis = await startRedisServer();
    // A demo-mode process plays the service (its simulator under /sim), with credentials we know.
    service = await startServer({ ...UPSTREAM, SIM_REPLY_DELAY_MS: '5' });
    const env = {
      ...UPSTREAM,
      REDIS_URL: redis.url,
      UPSTREAM_BASE_URL: `${service.url}/sim`,
      WEBHOOK_SECRET,
      SESSION_JWT_SECRET: JWT_SECRET,
      ALLOWED_ORIGINS: 'http://shop.test',
      IDENTITY_SECRET,
    };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop(), service?.stop()]);
    await redis?.stop();
  });

  it('resumes on B the conversation started on A; a message sent through A appears live on B; new and archived ones show on both', async () => {
    const user = `user-${Date.now()}`;
    const laptop = await call(a.url, 'POST', '/api/session', { body: { text: 'Started on the laptop', identityToken: await identityToken(user) } });
    expect(laptop.status).toBe(201);
    const phone = await call(b.url, 'POST', '/api/session', { body: { identityToken: await identityToken(user) } });
    expect([phone.status, phone.body.sessionId]).toEqual([201, laptop.body.sessionId]);

    const onPhone = await openSse(`${b.url}/api/events?token=${phone.body.token}`);
    expect((await call(a.url, 'POST', '/api/messages', { token: laptop.body.token, body: { text: 'Typed on the laptop' } })).status).toBe(202);
    await onPhone.next((e) => e.event === 'message' && JSON.parse(e.data).text === 'Typed on the laptop');
    onPhone.close();

    const second = await call(b.url, 'POST', '/api/conversations', { token: phone.body.token, body: { text: 'Another topic, from the phone' } });
    expect(second.status).toBe(201);
    const listOnA = (await call(a.url, 'GET', '/api/conversations', { token: laptop.body.token })).body.items;
    expect(listOnA.map((c: { sessionId: string }) => c.sessionId)).toEqual([second.body.sessionId, laptop.body.sessionId]);
    expect((await call(a.url, 'POST', '/api/session', { body: { identityToken: await identityToken(user) } })).body.sessionId).toBe(second.body.sessionId);

    // The phone reads the laptop's first conversation (read-only history) through B.
    const past = await call(b.url, 'GET', `/api/messages?sessionId=${laptop.body.sessionId}`, { token: second.body.token });
    expect(past.status).toBe(200);
    expect(past.body.items.map((m: { text?: string }) => m.text)).toContain('Typed on the laptop');

    expect((await call(a.url, 'POST', '/api/archive', { token: second.body.token })).status).toBe(202);
    expect((await call(b.url, 'GET', '/api/conversations', { token: phone.body.token })).body.items[0]).toMatchObject({ sessionId: second.body.sessionId, state: 'archived' });
  });

  it('continues on B an open conversation that was not the active one (POST /api/conversations/{id}/current); A resumes it after', async () => {
    const user = `continue-${Date.now()}`;
    const first = await call(a.url, 'POST', '/api/session', { body: { text: 'First topic', identityToken: await identityToken(user) } });
    const second = await call(a.url, 'POST', '/api/conversations', { token: first.body.token, body: { text: 'Second topic' } });
    const current = await call(b.url, 'POST', `/api/conversations/${first.body.sessionId}/current`, { token: second.body.token });
    expect([current.status, current.body.sessionId]).toEqual([200, first.body.sessionId]);
    expect((await call(a.url, 'POST', '/api/session', { body: { identityToken: await identityToken(user) } })).body.sessionId).toBe(first.body.sessionId);
  });

  it('another user on B cannot read a conversation bound on A', async () => {
    const owner = await call(a.url, 'POST', '/api/session', { body: { text: 'Mine', identityToken: await identityToken(`owner-${Date.now()}`) } });
    const other = await call(b.url, 'POST', '/api/session', { body: { text: 'Other', identityToken: await identityToken(`other-${Date.now()}`) } });
    const read = await call(b.url, 'GET', `/api/messages?sessionId=${owner.body.sessionId}`, { token: other.body.token });
    expect([read.status, read.body.error.code]).toEqual([403, 'forbidden']);
  });
  it('a sign-in on A ends the anonymous tokens on B too (no session fixation across instances)', async () => {
    const before = (await call(a.url, 'POST', '/api/session', { body: { text: 'Planted session' } })).body;
    const res = await call(a.url, 'POST', '/api/identify', { token: before.token, body: { identityToken: await identityToken(`fixed-${Date.now()}`) } });
    expect(res.status).toBe(200);
    const read = await call(b.url, 'GET', '/api/messages', { token: before.token });
    expect([read.status, read.body.error.code]).toEqual([401, 'invalid_token']);
    const refreshed = await call(b.url, 'POST', '/api/token', { body: { refreshToken: before.refreshToken } });
    expect([refreshed.status, refreshed.body.error.code]).toEqual([401, 'refresh_token_reused']);
    expect((await call(b.url, 'GET', '/api/messages', { token: res.body.token })).status).toBe(200);
  });

  it('a sign-in on B ends the anonymous start made on A: repeating it on either instance is 409 start_ended', async () => {
    const first = { text: 'Asked on A before login', startKey: `key-${Date.now()}-0123456789` };
    const before = (await call(a.url, 'POST', '/api/session', { body: first })).body;
    const signedIn = await call(b.url, 'POST', '/api/identify', { token: before.token, body: { identityToken: await identityToken(`user-${Date.now()}-start`) } });
    expect(signedIn.status).toBe(200);
    for (const instance of [a, b, a]) {
      const replay = await call(instance.url, 'POST', '/api/session', { body: first });
      expect([replay.status, replay.body.error?.code]).toEqual([409, 'start_ended']);
    }
  });

  it('an identity token whose sub is an array or a number is 401 invalid_identity on Redis, and resumes no one', async () => {
    const user = `array-${Date.now()}`;
    expect((await call(a.url, 'POST', '/api/session', { body: { text: 'Mine', identityToken: await identityToken(user) } })).status).toBe(201);
    for (const sub of [[user], 42]) {
      const token = await new SignJWT({ sub } as Record<string, unknown>).setProtectedHeader({ alg: 'HS256' }).setAudience('parley-identity').setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(IDENTITY_SECRET));
      const res = await call(b.url, 'POST', '/api/session', { body: { identityToken: token } });
      expect([res.status, res.body.error?.code]).toEqual([401, 'invalid_identity']);
    }
  });
});
