import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { openSse } from '../helpers/sse.js';
import { roomInThisMinute } from '../helpers/wait.js';

const IDENTITY_SECRET = 'identity-secret-for-tests-0123456789';
const nowSec = () => Math.floor(Date.now() / 1000);
let counter = 0;
const newUser = () => `user-${process.pid}-${++counter}`;

/** An identity token as a host site's backend mints it; `options` bend it into each refusal. */
function identityToken(sub: string, claims: Record<string, unknown> = {}, options: { secret?: string; aud?: string; iss?: string; iat?: number; exp?: number } = {}) {
  const jwt = new SignJWT({ name: 'Ada Lovelace', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setAudience(options.aud ?? 'parley-identity')
    .setIssuedAt(options.iat ?? nowSec())
    .setExpirationTime(options.exp ?? nowSec() + 600);
  if (options.iss) jwt.setIssuer(options.iss);
  return jwt.sign(new TextEncoder().encode(options.secret ?? IDENTITY_SECRET));
}

let bff: RunningServer;
let base: string;

beforeAll(async () => {
  bff = await startBff({ IDENTITY_SECRET, USER_VARIABLES: 'plan', RATE_LIMIT_SESSIONS_PER_MIN: '1000' });
  base = bff.url;
});
afterAll(() => bff.stop());

/** The simulated service's view of its conversations (the operator side). */
async function upstreamConversations(): Promise<Array<{ id: number; profileName?: string }>> {
  return (await call(base, 'GET', '/sim/operator/conversations')).body.conversations;
}
const upstreamConversation = async (id: string) => (await call(base, 'GET', `/sim/operator/conversations/${id}`)).body;

async function signIn(sub: string, text: string | undefined = 'Where is my order?', claims: Record<string, unknown> = {}) {
  const res = await call(base, 'POST', '/api/session', { body: { text, identityToken: await identityToken(sub, claims) } });
  expect(res.status).toBe(201);
  return res.body as { sessionId: string; token: string; refreshToken: string; user: { id: string; name?: string } };
}

describe('POST /api/session with an identity token', () => {
  it('starts a conversation bound to the user: verified name and variables go upstream', async () => {
    const sub = newUser();
    const s = await signIn(sub, 'Hello, it is Ada', { email: 'ada@example.com', variables: { plan: 'pro' } });
    expect(s.user).toEqual({ id: sub, name: 'Ada Lovelace' });
    const upstream = await upstreamConversation(s.sessionId);
    expect(upstream.conversation.profileName).toBe('Ada Lovelace');
    expect(upstream.variables).toEqual({ plan: 'pro', verifiedUserId: sub, verifiedEmail: 'ada@example.com' });
  });

  it('resumes the user’s active conversation from another browser, where a message continues it', async () => {
    const sub = newUser();
    const laptop = await signIn(sub, 'Started on the laptop');
    const stream = await openSse(`${base}/api/events?token=${laptop.token}`);
    const phone = await signIn(sub, undefined);
    expect(phone.sessionId).toBe(laptop.sessionId);
    expect((await call(base, 'POST', '/api/messages', { token: phone.token, body: { text: 'Continued on the phone' } })).status).toBe(202);
    const seen = await stream.next((e) => e.event === 'message' && JSON.parse(e.data).text === 'Continued on the phone');
    expect(JSON.parse(seen.data).role).toBe('user');
    stream.close();
    // Variables were set when the conversation became the user's, not again on each resume.
    const patches = (await upstreamConversation(laptop.sessionId)).deliveries.filter((d: { kind: string }) => d.kind === 'user.variables.updated');
    expect(patches).toHaveLength(1);
  });

  it.each([
    ['forged', () => identityToken('mallory', {}, { secret: 'not-the-identity-secret-0123456789' })],
    ['expired', () => identityToken('ada', {}, { iat: nowSec() - 7200, exp: nowSec() - 3600 })],
    ['alg none', async () => new UnsecuredJWT({ sub: 'ada', aud: 'parley-identity', iat: nowSec(), exp: nowSec() + 600 }).encode()],
    ['for another audience', () => identityToken('ada', {}, { aud: 'parley-widget' })],
    ['living over 24 h', () => identityToken('ada', {}, { exp: nowSec() + 24 * 3600 + 60 })],
    ['with a variable outside USER_VARIABLES', () => identityToken('ada', { variables: { role: 'admin' } })],
    ['not a JWT', async () => 'hello'],
  ])('refuses a token %s with 401 invalid_identity, creating nothing', async (_label, make) => {
    const before = (await upstreamConversations()).length;
    const res = await call(base, 'POST', '/api/session', { body: { text: 'hi', identityToken: await make() } });
    expect([res.status, res.body.error.code]).toEqual([401, 'invalid_identity']);
    expect((await upstreamConversations()).length).toBe(before);
  });

  it('with identity configured, page script cannot set a name or variables (403 identity_verified_only)', async () => {
    const named = await call(base, 'POST', '/api/session', { body: { text: 'hi', profileName: 'Admin' } });
    expect([named.status, named.body.error.code]).toEqual([403, 'identity_verified_only']);
    const anonymous = (await call(base, 'POST', '/api/session', { body: { text: 'hi' } })).body;
    const patch = await call(base, 'PATCH', '/api/user', { token: anonymous.token, body: { plan: 'enterprise' } });
    expect([patch.status, patch.body.error.code]).toEqual([403, 'identity_verified_only']);
    expect((await upstreamConversation(anonymous.sessionId)).variables).toEqual({});
  });
});

describe('a signed-in start whose answer was lost, tried again', () => {
  const userWords = async (sessionId: string, text: string) =>
    ((await upstreamConversation(sessionId)).messages as Array<{ hbo: string; message: string }>).filter((m) => m.hbo === 'user' && m.message === text).length;

  it('with a startKey: the same conversation, its first message sent once', async () => {
    const sub = newUser();
    const body = async () => ({ text: 'Lost answer, signed in', clientId: 'c_lost1', startKey: `key-${sub}-0123456789`, identityToken: await identityToken(sub) });
    const before = (await upstreamConversations()).length;
    const first = await call(base, 'POST', '/api/session', { body: await body() });
    const again = await call(base, 'POST', '/api/session', { body: await body() });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.sessionId).toBe(first.body.sessionId);
    expect((await upstreamConversations()).length).toBe(before + 1);
    expect(await userWords(first.body.sessionId, 'Lost answer, signed in')).toBe(1);
  });

  it('without one: the repeat resumes the conversation the first try made, and its clientId is known as sent', async () => {
    const sub = newUser();
    const body = async () => ({ text: 'No key, signed in', clientId: 'c_lost2', identityToken: await identityToken(sub) });
    const first = await call(base, 'POST', '/api/session', { body: await body() });
    const again = await call(base, 'POST', '/api/session', { body: await body() });
    expect(again.body.sessionId).toBe(first.body.sessionId);
    expect(await userWords(first.body.sessionId, 'No key, signed in')).toBe(1);
  });

  it('a new conversation of the user (POST /api/conversations) with a startKey: made once', async () => {
    const sub = newUser();
    const s = await signIn(sub, 'The first one');
    const body = { text: 'A second topic', clientId: 'c_lost3', startKey: `key-${sub}-abcdefghij` };
    const first = await call(base, 'POST', '/api/conversations', { token: s.token, body });
    const again = await call(base, 'POST', '/api/conversations', { token: s.token, body });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.sessionId).toBe(first.body.sessionId);
    expect(first.body.sessionId).not.toBe(s.sessionId);
    const list = (await call(base, 'GET', '/api/conversations', { token: again.body.token })).body.items;
    expect(list).toHaveLength(2);
  });
});

describe('POST /api/identify', () => {
  it('makes an anonymous conversation the user’s after a login (switched: false)', async () => {
    const sub = newUser();
    const anonymous = (await call(base, 'POST', '/api/session', { body: { text: 'Question before login' } })).body;
    const res = await call(base, 'POST', '/api/identify', { token: anonymous.token, body: { identityToken: await identityToken(sub) } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sessionId: anonymous.sessionId, switched: false, user: { id: sub, name: 'Ada Lovelace' } });
    const list = await call(base, 'GET', '/api/conversations', { token: res.body.token });
    expect(list.body.items).toEqual([{ sessionId: anonymous.sessionId, title: 'Question before login', state: 'open', updatedAt: expect.any(String), lastMessage: expect.objectContaining({ text: expect.any(String) }) }]);
    expect((await upstreamConversation(anonymous.sessionId)).variables).toMatchObject({ verifiedUserId: sub });
  });

  it('ends the pre-sign-in tokens: only the pair identify answered works afterwards (no session fixation)', async () => {
    const sub = newUser();
    const before = (await call(base, 'POST', '/api/session', { body: { text: 'Planted session' } })).body;
    const ticket = (await call(base, 'POST', '/api/events/ticket', { token: before.token })).body.ticket as string;
    const res = await call(base, 'POST', '/api/identify', { token: before.token, body: { identityToken: await identityToken(sub) } });
    expect(res.status).toBe(200);
    // The holder of the anonymous tokens gets nothing of the signed-in user's conversation.
    const read = await call(base, 'GET', '/api/messages', { token: before.token });
    expect([read.status, read.body.error.code]).toEqual([401, 'invalid_token']);
    const refreshed = await call(base, 'POST', '/api/token', { body: { refreshToken: before.refreshToken } });
    expect([refreshed.status, refreshed.body.error.code]).toEqual([401, 'refresh_token_reused']);
    const stream = await fetch(`${base}/api/events?ticket=${ticket}`);
    expect(stream.status).toBe(401);
    await stream.body?.cancel();
    // The signed-in pair works, and so does its refresh.
    expect((await call(base, 'GET', '/api/messages', { token: res.body.token })).status).toBe(200);
    const next = await call(base, 'POST', '/api/token', { body: { refreshToken: res.body.refreshToken } });
    expect(next.status).toBe(200);
    expect((await call(base, 'GET', '/api/messages', { token: next.body.token })).status).toBe(200);
  });

  it('ends the anonymous start with it: repeating that start (same startKey and text) gives no tokens (409 start_ended)', async () => {
    const sub = newUser();
    const first = { text: 'Question before login', startKey: randomUUID() };
    const before = (await call(base, 'POST', '/api/session', { body: first })).body;
    const res = await call(base, 'POST', '/api/identify', { token: before.token, body: { identityToken: await identityToken(sub) } });
    expect(res.status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const replay = await call(base, 'POST', '/api/session', { body: first });
      expect([replay.status, replay.body.error?.code, replay.body.token]).toEqual([409, 'start_ended', undefined]);
    }
    // The signed-in pair still works, and the conversation was started once.
    const history = await call(base, 'GET', '/api/messages', { token: res.body.token });
    expect(history.body.items.filter((m: { role: string }) => m.role === 'user')).toHaveLength(1);
  });

  it('ends the anonymous start also when identify switches to the user’s existing conversation', async () => {
    const sub = newUser();
    await signIn(sub);
    const first = { text: 'Asked in a new tab', startKey: randomUUID() };
    const before = (await call(base, 'POST', '/api/session', { body: first })).body;
    expect((await call(base, 'POST', '/api/identify', { token: before.token, body: { identityToken: await identityToken(sub) } })).body.switched).toBe(true);
    const replay = await call(base, 'POST', '/api/session', { body: first });
    expect([replay.status, replay.body.error?.code]).toEqual([409, 'start_ended']);
  });

  it('switches to the user’s existing conversation (switched: true), leaving the anonymous one alone', async () => {
    const sub = newUser();
    const existing = await signIn(sub);
    const anonymous = (await call(base, 'POST', '/api/session', { body: { text: 'New tab, not logged in' } })).body;
    const res = await call(base, 'POST', '/api/identify', { token: anonymous.token, body: { identityToken: await identityToken(sub) } });
    expect(res.body).toMatchObject({ sessionId: existing.sessionId, switched: true });
    const list = (await call(base, 'GET', '/api/conversations', { token: res.body.token })).body.items;
    expect(list.map((c: { sessionId: string }) => c.sessionId)).toEqual([existing.sessionId]);
  });

  it('refuses identify without a valid identity token (401 invalid_identity), changing nothing', async () => {
    const anonymous = (await call(base, 'POST', '/api/session', { body: { text: 'hi' } })).body;
    for (const body of [{}, { identityToken: await identityToken('ada', {}, { secret: 'x'.repeat(40) }) }]) {
      const res = await call(base, 'POST', '/api/identify', { token: anonymous.token, body });
      expect([res.status, res.body.error.code]).toEqual([401, 'invalid_identity']);
    }
    expect((await upstreamConversation(anonymous.sessionId)).variables).toEqual({});
  });
});

describe('when the service refuses the verified variables', () => {
  const fault = (spec: Record<string, unknown>) => call(base, 'POST', '/sim/__faults', { body: spec });

  it('a first message still starts the conversation once (201), so the widget does not send it again', async () => {
    const sub = newUser();
    await fault({ count: 1, delayMs: 1 }); // the send goes through
    await fault({ status: 400, count: 1 }); // the variables do not
    const s = await signIn(sub, 'Sent once');
    const history = (await call(base, 'GET', '/api/messages', { token: s.token })).body.items;
    expect(history.filter((m: { text?: string }) => m.text === 'Sent once')).toHaveLength(1);
    expect((await upstreamConversation(s.sessionId)).variables).toEqual({});
  });

  it('identify still answers the signed-in pair and ends the tokens from before it', async () => {
    const before = (await call(base, 'POST', '/api/session', { body: { text: 'Before the login' } })).body;
    await fault({ status: 400, count: 1 });
    const res = await call(base, 'POST', '/api/identify', { token: before.token, body: { identityToken: await identityToken(newUser()) } });
    expect(res.status).toBe(200);
    expect((await call(base, 'GET', '/api/messages', { token: before.token })).status).toBe(401);
    expect((await call(base, 'GET', '/api/messages', { token: res.body.token })).status).toBe(200);
  });
});

describe('one user’s token and another user’s conversations', () => {
  it('A never reads B’s history, never takes B’s conversation, and an anonymous token never lists', async () => {
    const [a, b] = [await signIn(newUser(), 'A writes'), await signIn(newUser(), 'B writes')];
    const read = await call(base, 'GET', `/api/messages?sessionId=${b.sessionId}`, { token: a.token });
    expect([read.status, read.body.error.code]).toEqual([403, 'forbidden']);
    // A's token presenting B's identity: B's conversation is not handed out and A's is not given to B.
    const identify = await call(base, 'POST', '/api/identify', { token: a.token, body: { identityToken: await identityToken(b.user.id) } });
    expect([identify.status, identify.body.error.code]).toEqual([403, 'forbidden']);
    expect((await call(base, 'GET', '/api/conversations', { token: b.token })).body.items.map((c: { sessionId: string }) => c.sessionId)).toEqual([b.sessionId]);
    // Writes, streams and archive go to the token's own conversation whatever the request says.
    await call(base, 'POST', '/api/messages', { token: a.token, body: { text: 'meant for B?', sessionId: b.sessionId } });
    expect(JSON.stringify((await call(base, 'GET', '/api/messages', { token: b.token })).body.items)).not.toContain('meant for B?');
    const anonymous = (await call(base, 'POST', '/api/session', { body: { text: 'hi' } })).body;
    for (const [method, path] of [['GET', '/api/conversations'], ['POST', '/api/conversations']] as const) {
      const res = await call(base, method, path, { token: anonymous.token, ...(method === 'POST' && { body: { text: 'hi' } }) });
      expect([res.status, res.body.error.code]).toEqual([403, 'forbidden']);
    }
    const anonymousRead = await call(base, 'GET', `/api/messages?sessionId=${a.sessionId}`, { token: anonymous.token });
    expect([anonymousRead.status, anonymousRead.body.error.code]).toEqual([403, 'forbidden']);
  });
});

describe('the user’s conversations', () => {
  it('lists them newest first, starts another, opens a past one read-only; refresh keeps the user', async () => {
    const sub = newUser();
    const first = await signIn(sub, 'My first question');
    const started = await call(base, 'POST', '/api/conversations', { token: first.token, body: { text: 'A second topic' } });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ user: { id: sub } });
    expect(started.body.sessionId).not.toBe(first.sessionId);
    const refreshed = (await call(base, 'POST', '/api/token', { body: { refreshToken: started.body.refreshToken } })).body;
    const list = (await call(base, 'GET', '/api/conversations', { token: refreshed.token })).body.items;
    expect(list.map((c: { title: string }) => c.title)).toEqual(['A second topic', 'My first question']);
    const past = await call(base, 'GET', `/api/messages?sessionId=${first.sessionId}`, { token: refreshed.token });
    expect(past.status).toBe(200);
    expect(past.body.items.some((m: { text?: string }) => m.text === 'My first question')).toBe(true);
    // The new conversation is now the active one, on any device.
    expect((await signIn(sub, undefined)).sessionId).toBe(started.body.sessionId);
  });

  it('each listed conversation carries its last message: one line of plain text and who wrote it (the bot, an operator by name, or the visitor)', async () => {
    const sub = newUser();
    const first = await signIn(sub, 'Where is my order?');
    const list = async () => (await call(base, 'GET', '/api/conversations', { token: first.token })).body.items as Array<{ sessionId: string; updatedAt: string; lastMessage?: { text: string; author: { kind: string; name?: string }; at?: string } }>;
    const lastOf = async (sessionId: string) => (await list()).find((c) => c.sessionId === sessionId)?.lastMessage;

    // The simulated agent answers: its words under the bot's name.
    await expect.poll(async () => (await lastOf(first.sessionId))?.author, { timeout: 5_000 }).toEqual({ kind: 'bot', name: 'Juniper' });
    const answer = (await lastOf(first.sessionId))!;
    expect(answer.text.length).toBeGreaterThan(0);
    expect(answer.text.length).toBeLessThanOrEqual(160);
    expect(answer.text).not.toMatch(/\n|\*\*|<\w/);
    expect(Date.parse(answer.at!)).not.toBeNaN();

    // An operator's Markdown: its words on one line, without marks or tags, under the name the widget shows.
    expect((await call(base, 'POST', `/sim/operator/conversations/${first.sessionId}/escalate`, { body: { name: 'mara' } })).status).toBe(200);
    const reply = '**Good news:** your order\n\n- ships *today*\n- tracking: [NO-48213](https://shop.example/t) <b>soon</b> &amp; more';
    expect((await call(base, 'POST', `/sim/operator/conversations/${first.sessionId}/messages`, { body: { name: 'mara', text: reply } })).status).toBe(201);
    await expect.poll(async () => (await lastOf(first.sessionId))?.author, { timeout: 5_000 }).toEqual({ kind: 'operator', name: 'Mara Lindqvist' });
    expect((await lastOf(first.sessionId))!.text).toBe('Good news: your order ships today tracking: NO-48213 soon & more');

    // The visitor wrote last: "you", never the user's name. A long message is cut with "…".
    const long = `Thanks! ${'And one more thing about the parcel. '.repeat(8)}`;
    expect((await call(base, 'POST', '/api/messages', { token: first.token, body: { text: long } })).status).toBe(202);
    const mine = (await lastOf(first.sessionId))!;
    expect(mine.author).toEqual({ kind: 'user' });
    expect(mine.text).toHaveLength(160);
    expect(mine.text.endsWith('…')).toBe(true);
    expect(long.startsWith(mine.text.slice(0, -1))).toBe(true);

    // A new conversation has its own; the one before keeps its own.
    const second = (await call(base, 'POST', '/api/conversations', { token: first.token, body: { text: 'A second topic' } })).body;
    const items = (await call(base, 'GET', '/api/conversations', { token: second.token })).body.items as Array<{ sessionId: string; lastMessage?: { author: { kind: string } } }>;
    expect(items.map((c) => c.sessionId)).toEqual([second.sessionId, first.sessionId]);
    expect(items[0]!.lastMessage?.author.kind).toMatch(/^(user|bot)$/);
    expect(items[1]!.lastMessage?.author).toEqual({ kind: 'user' });
  });

  it('POST /api/conversations/{id}/current continues an open one from any device; archived 409, another user’s 403', async () => {
    const sub = newUser();
    const first = await signIn(sub, 'Started on the laptop');
    const second = (await call(base, 'POST', '/api/conversations', { token: first.token, body: { text: 'Another topic' } })).body;
    const phone = await signIn(sub, undefined);
    expect(phone.sessionId).toBe(second.sessionId);
    const res = await call(base, 'POST', `/api/conversations/${first.sessionId}/current`, { token: phone.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sessionId: first.sessionId, user: { id: sub } });
    // It is the user's active one now: the laptop's next resume lands there, and the phone writes into it.
    expect((await signIn(sub, undefined)).sessionId).toBe(first.sessionId);
    expect((await call(base, 'POST', '/api/messages', { token: res.body.token, body: { text: 'Continued on the phone' } })).status).toBeLessThan(300);
    const history = (await call(base, 'GET', '/api/messages', { token: first.token })).body.items;
    expect(history.some((m: { text?: string }) => m.text === 'Continued on the phone')).toBe(true);

    expect((await call(base, 'POST', '/api/archive', { token: res.body.token })).status).toBe(202);
    await expect.poll(async () => (await call(base, 'POST', `/api/conversations/${first.sessionId}/current`, { token: second.token })).body.error?.code).toBe('conversation_archived');
    const archived = await call(base, 'POST', `/api/conversations/${first.sessionId}/current`, { token: second.token });
    expect(archived.status).toBe(409);
    expect((await call(base, 'GET', `/api/messages?sessionId=${first.sessionId}`, { token: second.token })).status).toBe(200);

    const other = await signIn(newUser(), 'Someone else');
    const foreign = await call(base, 'POST', `/api/conversations/${second.sessionId}/current`, { token: other.token });
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'forbidden']);
    const anonymous = (await call(base, 'POST', '/api/session', { body: { text: 'hi' } })).body;
    const anon = await call(base, 'POST', `/api/conversations/${second.sessionId}/current`, { token: anonymous.token });
    expect([anon.status, anon.body.error.code]).toEqual([403, 'forbidden']);
  });

  it('an archived conversation stays listed as archived; the next session starts a new one', async () => {
    const sub = newUser();
    const s = await signIn(sub, 'Close this one');
    expect((await call(base, 'POST', '/api/archive', { token: s.token })).status).toBe(202);
    expect((await call(base, 'GET', '/api/conversations', { token: s.token })).body.items[0]).toMatchObject({ sessionId: s.sessionId, state: 'archived' });
    const next = await signIn(sub, 'Something new');
    expect(next.sessionId).not.toBe(s.sessionId);
  });

  it('follows the operator: taken over, then archived in the service, the conversation is not resumed', async () => {
    const sub = newUser();
    const s = await signIn(sub, 'Please get me a person');
    const listed = async () => (await call(base, 'GET', '/api/conversations', { token: s.token })).body.items[0].state;
    expect((await call(base, 'POST', `/sim/operator/conversations/${s.sessionId}/escalate`, { body: {} })).status).toBeLessThan(300);
    await expect.poll(listed).toBe('escalated');
    expect((await call(base, 'POST', `/sim/operator/conversations/${s.sessionId}/archive`, { body: {} })).status).toBeLessThan(300);
    await expect.poll(listed).toBe('archived');
    expect((await signIn(sub, 'Back again')).sessionId).not.toBe(s.sessionId);
  });
});

describe('the demo shop', () => {
  it('signs in its sample customers with tokens the BFF accepts; the operator sees them as verified', async () => {
    const minted = await call(base, 'POST', '/demo/identity', { body: { customer: 'ben' } });
    expect(minted.status).toBe(200);
    const s = await call(base, 'POST', '/api/session', { body: { text: 'Hi from Ben', identityToken: minted.body.identityToken } });
    expect(s.body.user).toEqual({ id: 'nimbus-1002', name: 'Ben Okafor' });
    const listed = (await upstreamConversations()).find((c) => String(c.id) === s.body.sessionId);
    expect(listed).toMatchObject({ profileName: 'Ben Okafor', verifiedUserId: 'nimbus-1002' });
    const unknown = await call(base, 'POST', '/demo/identity', { body: { customer: 'mallory' } });
    expect([unknown.status, unknown.body.error.code]).toEqual([400, 'invalid_request']);
  });
});

describe('IDENTITY_REQUIRED, IDENTITY_ISSUER and IDENTITY_JWKS_URL', () => {
  let strict: RunningServer;
  let jwks: Server;
  let privateKey: CryptoKey;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'shop-1', alg: 'ES256' };
    jwks = createServer((_req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify({ keys: [jwk] })));
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    strict = await startBff({
      IDENTITY_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`,
      IDENTITY_ISSUER: 'https://shop.example',
      IDENTITY_REQUIRED: 'true',
    });
  });
  afterAll(async () => {
    await strict.stop();
    await new Promise((resolve) => jwks.close(resolve));
  });

  const es256 = (iss: string) =>
    new SignJWT({}).setProtectedHeader({ alg: 'ES256', kid: 'shop-1' }).setSubject('ada').setAudience('parley-identity').setIssuer(iss).setIssuedAt().setExpirationTime('10m').sign(privateKey);

  it('refuses sessions without an identity token (401 identity_required) and says so in /api/config', async () => {
    const res = await call(strict.url, 'POST', '/api/session', { body: { text: 'hi' } });
    expect([res.status, res.body.error.code]).toEqual([401, 'identity_required']);
    expect((await call(strict.url, 'GET', '/api/config')).body.identity).toBe('required');
    expect((await call(base, 'GET', '/api/config')).body.identity).toBe('optional');
  });

  it('accepts a token signed by a key of the JWKS with the configured issuer, and no other issuer', async () => {
    const ok = await call(strict.url, 'POST', '/api/session', { body: { text: 'hi', identityToken: await es256('https://shop.example') } });
    expect([ok.status, ok.body.user]).toEqual([201, { id: 'ada' }]);
    const wrongIss = await call(strict.url, 'POST', '/api/session', { body: { text: 'hi', identityToken: await es256('https://evil.example') } });
    expect([wrongIss.status, wrongIss.body.error.code]).toEqual([401, 'invalid_identity']);
    const hs256 = await call(strict.url, 'POST', '/api/session', { body: { text: 'hi', identityToken: await identityToken('ada', {}, { iss: 'https://shop.example' }) } });
    expect([hs256.status, hs256.body.error.code]).toEqual([401, 'invalid_identity']);
  });
});

describe('resuming with text', () => {
  let strict: RunningServer;
  beforeAll(async () => {
    strict = await startBff({ IDENTITY_SECRET, RATE_LIMIT_MESSAGES_PER_MIN: '2', RATE_LIMIT_SESSIONS_PER_MIN: '1000' });
  });
  afterAll(() => strict.stop());

  it('counts against the conversation’s message limit, like POST /api/messages', async () => {
    const sub = newUser();
    const resume = async (text: string) => call(strict.url, 'POST', '/api/session', { body: { text, identityToken: await identityToken(sub) } });
    // The real clock here, not startOfAMinute: a frozen Date made these identity tokens 401 in full runs.
    await roomInThisMinute(5_000);
    expect((await resume('first')).status).toBe(201); // starts the conversation: counted as a new session
    const statuses = [];
    for (const text of ['two', 'three', 'four']) statuses.push((await resume(text)).status);
    expect(statuses).toEqual([201, 201, 429]);
    const over = await resume('five');
    expect([over.status, over.body.error.code]).toEqual([429, 'rate_limited']);
  });
});
