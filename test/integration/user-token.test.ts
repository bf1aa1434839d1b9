/**
 * A signed-in user with no open conversation: POST /api/session with only an
 * identity token answers a user token, which lists, reads, continues and starts the user's own
 * conversations and nothing else.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';

const IDENTITY_SECRET = 'identity-secret-for-tests-0123456789';
let counter = 0;
const newUser = () => `user-token-${process.pid}-${++counter}`;

const identityToken = (sub: string, claims: object = {}) =>
  new SignJWT({ name: 'Ada Lovelace', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setAudience('parley-identity')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(IDENTITY_SECRET));

let bff: RunningServer;
let base: string;
beforeAll(async () => {
  bff = await startBff({ IDENTITY_SECRET, RATE_LIMIT_SESSIONS_PER_MIN: '1000' });
  base = bff.url;
});
afterAll(() => bff.stop());

const session = async (sub: string, text?: string) => call(base, 'POST', '/api/session', { body: { identityToken: await identityToken(sub), ...(text ? { text } : {}) } });

describe('POST /api/session with an identity token and no text, for a user with no open conversation', () => {
  it('answers 200 with a user token and the user, creating nothing', async () => {
    const sub = newUser();
    const res = await session(sub);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.any(String), expiresAt: expect.any(String), user: { id: sub, name: 'Ada Lovelace' } });
    const list = await call(base, 'GET', '/api/conversations', { token: res.body.token });
    expect([list.status, list.body]).toEqual([200, { items: [] }]);
    // Still nothing to resume: the next call is a user token again.
    expect((await session(sub)).status).toBe(200);
  });

  it('tells the browser who the user is, not whether the server holds their address', async () => {
    const sub = newUser();
    const res = await call(base, 'POST', '/api/session', { body: { identityToken: await identityToken(sub, { email: 'ada@example.com' }) } });
    expect([res.status, res.body.user]).toEqual([200, { id: sub, name: 'Ada Lovelace' }]);
  });

  it('keeps what the identity token said: a conversation started from the user token knows the site gave the email', async () => {
    const sub = newUser();
    const { token } = (await call(base, 'POST', '/api/session', { body: { identityToken: await identityToken(sub, { email: 'ada@example.com' }) } })).body;
    const started = await call(base, 'POST', '/api/conversations', { token, body: { text: 'A question' } });
    expect(started.status).toBe(201);
    const contact = await call(base, 'POST', '/api/contact', { token: started.body.token, body: { email: 'someone-else@example.com' } });
    expect([contact.status, contact.body.error?.code]).toEqual([409, 'contact_known']);
  });

  it('lists the user’s ended conversations, reads one, continues an open one, starts a new one', async () => {
    const sub = newUser();
    const older = (await session(sub, 'An older open topic')).body;
    const ended = (await call(base, 'POST', '/api/conversations', { token: older.token, body: { text: 'Closed topic' } })).body;
    expect((await call(base, 'POST', '/api/archive', { token: ended.token })).status).toBe(202);
    await expect.poll(async () => (await session(sub)).status).toBe(200);
    const { token } = (await session(sub)).body;

    const items = (await call(base, 'GET', '/api/conversations', { token })).body.items;
    expect(items.map((c: { title: string; state: string }) => [c.title, c.state])).toEqual([
      ['Closed topic', 'archived'],
      ['An older open topic', 'open'],
    ]);
    const past = await call(base, 'GET', `/api/messages?sessionId=${ended.sessionId}`, { token });
    expect(past.status).toBe(200);
    expect(past.body.items.some((m: { text?: string }) => m.text === 'Closed topic')).toBe(true);
    const continued = await call(base, 'POST', `/api/conversations/${older.sessionId}/current`, { token });
    expect([continued.status, continued.body.sessionId]).toEqual([200, older.sessionId]);
    expect((await session(sub)).body.sessionId).toBe(older.sessionId);

    const started = await call(base, 'POST', '/api/conversations', { token, body: { text: 'A third topic' } });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ user: { id: sub } });
  });

  it('is no conversation’s token: messages, the stream, archive and another user’s history refuse it', async () => {
    const { token } = (await session(newUser())).body;
    const other = (await session(newUser(), 'Not yours')).body;
    expect((await call(base, 'GET', '/api/messages', { token })).status).toBe(403);
    expect((await call(base, 'GET', `/api/messages?sessionId=${other.sessionId}`, { token })).status).toBe(403);
    expect((await call(base, 'POST', `/api/conversations/${other.sessionId}/current`, { token })).status).toBe(403);
    for (const [method, path, body] of [
      ['POST', '/api/messages', { text: 'hi' }],
      ['POST', '/api/archive', undefined],
      ['POST', '/api/events/ticket', undefined],
      ['POST', '/api/identify', { identityToken: 'x' }],
    ] as const) {
      const res = await call(base, method, path, { token, body });
      expect([path, res.status, res.body.error.code]).toEqual([path, 401, 'invalid_token']);
    }
    expect((await call(base, 'POST', '/api/token', { body: { refreshToken: token } })).status).toBe(401);
  });

  it('an anonymous visitor still needs text to start (400 text_invalid)', async () => {
    const res = await call(base, 'POST', '/api/session', { body: {} });
    expect([res.status, res.body.error.code]).toEqual([400, 'text_invalid']);
  });
});
