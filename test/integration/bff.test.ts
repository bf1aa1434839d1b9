import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { startOfAMinute, until } from '../helpers/wait.js';
import { call, JWT_SECRET, postWebhook, startBff } from '../helpers/bff.js';
import { openSse } from '../helpers/sse.js';

let bff: RunningServer;
let base: string;

beforeAll(async () => {
  bff = await startBff({ ESCALATION_OPERATOR_EMAIL: 'ops@nimbus.example', USER_VARIABLES: 'email,plan', HEARTBEAT_SEC: '1', RATE_LIMIT_SESSIONS_PER_MIN: '1000' });
  base = bff.url;
});
afterAll(() => bff.stop());

async function newSession(text = 'Hello there', extra: Record<string, unknown> = {}) {
  const res = await call(base, 'POST', '/api/session', { body: { text, ...extra } });
  expect(res.status).toBe(201);
  return res.body as { sessionId: string; token: string; refreshToken: string; expiresAt: string };
}

describe('public routes', () => {
  it('GET /api/config gives public settings only', async () => {
    const res = await call(base, 'GET', '/api/config');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ mode: 'agent', features: { escalation: true, upload: true, flows: [] }, userVariables: ['email', 'plan'] });
    expect(typeof res.body.title).toBe('string');
    expect(JSON.stringify(res.body)).not.toMatch(/secret|token|ops@nimbus/i);
    // Cacheable, and without an Origin it carries no CORS headers: a shared cache must key it by Origin.
    expect(res.headers.get('cache-control')).toMatch(/public/);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
  });

  it('no cache keeps an /api answer that carries tokens or a conversation, errors included; none is sniffed', async () => {
    const created = await call(base, 'POST', '/api/session', { body: { text: 'Hello' } });
    const refused = await call(base, 'GET', '/api/messages');
    const history = await call(base, 'GET', '/api/messages', { token: created.body.token });
    for (const res of [created, refused, history]) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await call(base, 'GET', '/api/config')).headers.get('cache-control')).toBe('public, max-age=60');
    // The event stream writes its own headers: not sniffed either, and kept by no cache.
    const stream = await openSse(`${base}/api/events?token=${created.body.token}`);
    expect([stream.status, stream.headers.get('x-content-type-options'), stream.headers.get('cache-control')]).toEqual([200, 'nosniff', 'no-cache, no-transform']);
    stream.close();
  });

  it('every response carries a request id, a well-formed incoming one is kept', async () => {
    const fresh = await call(base, 'GET', '/healthz');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await call(base, 'POST', '/api/session', { body: {}, headers: { 'x-request-id': 'trace-42' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-42');
    const bogus = await call(base, 'GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(bogus.headers.get('x-request-id')).not.toBe('bad id with spaces');
  });

  it('GET /healthz and /readyz', async () => {
    expect((await call(base, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await call(base, 'GET', '/readyz')).body).toEqual({ status: 'ready' });
  });

  it('unknown routes get a JSON 404', async () => {
    const res = await call(base, 'GET', '/api/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });
});

describe('POST /api/session', () => {
  it('starts a conversation: 201 with a token pair, and the agent answers on the stream', async () => {
    const s = await newSession('Hi, where is my order?', { clientId: 'c-1', profileName: 'Ada' });
    expect(s.sessionId).toMatch(/^\d+$/);
    expect(Date.parse(s.expiresAt)).toBeGreaterThan(Date.now());
    const sse = await openSse(`${base}/api/events?token=${s.token}`);
    expect(sse.status).toBe(200);
    expect(sse.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(sse.headers.get('x-accel-buffering')).toBe('no');
    expect(sse.headers.get('cache-control')).toContain('no-cache');
    const user = await sse.next((e) => e.event === 'message' && JSON.parse(e.data).role === 'user');
    expect(JSON.parse(user.data)).toMatchObject({ role: 'user', text: 'Hi, where is my order?', clientId: 'c-1' });
    const bot = await sse.next((e) => e.event === 'message' && JSON.parse(e.data).role === 'bot');
    expect(Number(bot.id)).toBeGreaterThan(Number(user.id));
    sse.close();
  });

  it.each([
    [{ text: '' }, 400, 'text_invalid'],
    [{ text: '   ' }, 400, 'text_invalid'],
    [{ text: 'x'.repeat(4001) }, 400, 'text_invalid'],
    [{ text: 42 }, 400, 'text_invalid'],
    [{}, 400, 'text_invalid'],
    [{ text: 'hi', profileName: 'x'.repeat(101) }, 400, 'invalid_request'],
    [{ text: 'hi', clientId: 'has spaces' }, 400, 'invalid_request'],
  ])('refuses %j with %i %s', async (body, status, code) => {
    const res = await call(base, 'POST', '/api/session', { body });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
  });

  it('accepts exactly 4000 characters after trimming', async () => {
    const res = await call(base, 'POST', '/api/session', { body: { text: `  ${'y'.repeat(4000)}  ` } });
    expect(res.status).toBe(201);
  });

  it('refuses bad JSON (400), another media type (415) and an oversized body (413)', async () => {
    expect((await call(base, 'POST', '/api/session', { raw: '{"text":', headers: { 'content-type': 'application/json' } })).body.error.code).toBe('invalid_json');
    const form = await call(base, 'POST', '/api/session', { raw: 'text=hi', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([form.status, form.body.error.code]).toEqual([415, 'unsupported_media_type']);
    const big = await call(base, 'POST', '/api/session', { raw: JSON.stringify({ text: 'a', pad: 'x'.repeat(20_000) }), headers: { 'content-type': 'application/json' } });
    expect([big.status, big.body.error.code]).toEqual([413, 'payload_too_large']);
  });

  it.each(['application/json-seq', 'application/json, text/plain', 'application/json/x', 'application/json.x', 'application/json, application/json'])(
    'refuses Content-Type %s with 415, not a check of an empty body',
    async (type) => {
      const res = await call(base, 'POST', '/api/session', { raw: JSON.stringify({ text: 'hi' }), headers: { 'content-type': type } });
      expect([res.status, res.body.error.code]).toEqual([415, 'unsupported_media_type']);
    },
  );

  it.each(['application/json; charset=utf-8', 'Application/JSON', ' application/vnd.parley+json '])('takes Content-Type %j', async (type) => {
    const res = await call(base, 'POST', '/api/session', { raw: JSON.stringify({ text: 'hi' }), headers: { 'content-type': type } });
    expect(res.status).toBe(201);
  });

  it('refuses a body nested past 32 levels with 400, not a stack overflow; 32 levels still pass the reader', async () => {
    const nested = (depth: number) => `{"text":"hi","d":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    for (const path of ['/api/session', '/api/token']) {
      const deep = await call(base, 'POST', path, { raw: nested(5000), headers: { 'content-type': 'application/json' } });
      expect([deep.status, deep.body.error.code, deep.body.error.message]).toEqual([400, 'invalid_request', 'Body nests objects and arrays more than 32 deep']);
    }
    const within = await call(base, 'POST', '/api/session', { raw: nested(32), headers: { 'content-type': 'application/json' } });
    expect(within.status).toBe(201);
  });
});

describe('authenticated routes', () => {
  it.each([
    ['POST', '/api/messages'],
    ['GET', '/api/messages'],
    ['GET', '/api/events'],
    ['PATCH', '/api/user'],
    ['POST', '/api/escalate'],
    ['POST', '/api/archive'],
  ])('%s %s needs a token (401 unauthorized)', async (method, path) => {
    const res = await call(base, method, path);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('unauthorized');
  });

  it('refuses malformed, forged, expired and refresh tokens', async () => {
    const s = await newSession();
    expect((await call(base, 'GET', '/api/messages', { headers: { authorization: 'Basic abc' } })).body.error).toEqual({ code: 'invalid_token', message: 'Authorization must be "Bearer <token>"' });
    // In the right form but not a JWT: the message says which, not the form again.
    expect((await call(base, 'GET', '/api/messages', { headers: { authorization: 'Bearer abc' } })).body.error).toEqual({ code: 'invalid_token', message: 'The bearer token is not a session token (a JWT)' });
    expect((await call(base, 'GET', '/api/messages', { token: `${s.token}x` })).body.error.code).toBe('invalid_token');
    expect((await call(base, 'GET', '/api/messages', { token: s.refreshToken })).body.error.code).toBe('invalid_token');
    const key = new TextEncoder().encode(JWT_SECRET);
    const expired = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(s.sessionId).setAudience('parley-widget').setIssuer('parley-bff').setIssuedAt(1_700_000_000).setExpirationTime(1_700_000_900).sign(key);
    const res = await call(base, 'GET', '/api/messages', { token: expired });
    expect([res.status, res.body.error.code]).toEqual([401, 'token_expired']);
    const stream = await openSse(`${base}/api/events?token=${expired}`);
    expect(stream.status).toBe(401);
    expect(JSON.parse(stream.raw).error.code).toBe('token_expired');
  });

  it('takes the Bearer scheme in any case (RFC 9110), the token only as issued', async () => {
    const s = await newSession();
    for (const scheme of ['bearer', 'BEARER', 'Bearer  ']) {
      expect((await call(base, 'GET', '/api/messages', { headers: { authorization: `${scheme} ${s.token}` } })).status).toBe(200);
    }
    expect((await call(base, 'GET', '/api/messages', { headers: { authorization: `Bearer ${s.token.toUpperCase()}` } })).body.error.code).toBe('invalid_token');
  });

  it("an anonymous token may name its own conversation in GET /api/messages?sessionId=, no other", async () => {
    const [mine, theirs] = [await newSession(), await newSession()];
    const own = await call(base, 'GET', `/api/messages?sessionId=${mine.sessionId}`, { token: mine.token });
    expect(own.status).toBe(200);
    expect(own.body).toEqual((await call(base, 'GET', '/api/messages', { token: mine.token })).body);
    const other = await call(base, 'GET', `/api/messages?sessionId=${theirs.sessionId}`, { token: mine.token });
    expect([other.status, other.body.error.code]).toEqual([403, 'forbidden']);
  });

  it('POST /api/messages again with the same clientId (its answer was lost) is answered 202 and not sent a second time', async () => {
    const s = await newSession();
    const body = { text: 'Where is my parcel, please?', clientId: 'c-lost-answer' };
    for (let i = 0; i < 2; i++) expect((await call(base, 'POST', '/api/messages', { token: s.token, body })).status).toBe(202);
    const sent = (await call(base, 'GET', `/sim/operator/conversations/${s.sessionId}`)).body.messages as unknown[];
    expect(sent.filter((m) => JSON.stringify(m).includes(body.text))).toHaveLength(1);
    // Another message, with its own clientId, goes as usual.
    expect((await call(base, 'POST', '/api/messages', { token: s.token, body: { text: 'And a second question', clientId: 'c-next' } })).status).toBe(202);
    const after = (await call(base, 'GET', `/sim/operator/conversations/${s.sessionId}`)).body.messages as unknown[];
    expect(after.filter((m) => JSON.stringify(m).includes('And a second question'))).toHaveLength(1);
  });

  it('POST /api/messages: 202 {} and the message and the reply arrive on the stream', async () => {
    const s = await newSession();
    const sse = await openSse(`${base}/api/events`, { authorization: `Bearer ${s.token}` });
    await sse.next((e) => e.event === 'message' && JSON.parse(e.data).role === 'bot');
    const res = await call(base, 'POST', '/api/messages', { token: s.token, body: { text: 'Show me a card', clientId: 'c-2' } });
    expect([res.status, res.body]).toEqual([202, {}]);
    await sse.next((e) => e.event === 'message' && JSON.parse(e.data).clientId === 'c-2');
    const card = await sse.next((e) => e.event === 'message' && JSON.parse(e.data).badge !== undefined);
    const badge = JSON.parse(card.data).badge;
    expect(badge.type).toBe('card');
    expect(card.data).not.toContain('{\\"');
    sse.close();
  });

  it('GET /api/messages pages the history oldest first with hasMore', async () => {
    const s = await newSession('first');
    for (const text of ['second', 'third']) expect((await call(base, 'POST', '/api/messages', { token: s.token, body: { text } })).status).toBe(202);
    await until('the three questions in the history', async () => (await call(base, 'GET', '/api/messages?limit=50', { token: s.token })).body.items.filter((m: { role: string }) => m.role === 'user').length === 3);
    const page = await call(base, 'GET', '/api/messages?limit=2&offset=0', { token: s.token });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ limit: 2, offset: 0, hasMore: true });
    expect(page.body.items).toHaveLength(2);
    const all = await call(base, 'GET', '/api/messages?limit=50', { token: s.token });
    const texts = all.body.items.filter((m: any) => m.role === 'user').map((m: any) => m.text);
    expect(texts).toEqual(['first', 'second', 'third']);
    expect(all.body.hasMore).toBe(false);
    for (const q of ['limit=0', 'limit=51', 'limit=abc', 'offset=-1']) {
      const bad = await call(base, 'GET', `/api/messages?${q}`, { token: s.token });
      expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_request']);
    }
  });

  it('PATCH /api/user: only allowed names and plain values', async () => {
    const s = await newSession();
    expect((await call(base, 'PATCH', '/api/user', { token: s.token, body: { email: 'ada@example.com', plan: 2 } })).status).toBe(204);
    const bad = await call(base, 'PATCH', '/api/user', { token: s.token, body: { role: 'admin' } });
    expect([bad.status, bad.body.error.code]).toEqual([403, 'variable_not_allowed']);
    const nested = await call(base, 'PATCH', '/api/user', { token: s.token, body: { email: { $ne: 1 } } });
    expect([nested.status, nested.body.error.code]).toEqual([400, 'invalid_request']);
    expect((await call(base, 'PATCH', '/api/user', { token: s.token, body: {} })).status).toBe(400);
  });

  it('escalate then archive: state and archived events reach the stream', async () => {
    const s = await newSession();
    const sse = await openSse(`${base}/api/events?token=${s.token}`);
    expect((await call(base, 'POST', '/api/escalate', { token: s.token })).status).toBe(202);
    expect(JSON.parse((await sse.next((e) => e.event === 'state')).data)).toEqual({ state: 'escalated' });
    expect((await call(base, 'POST', '/api/archive', { token: s.token })).status).toBe(202);
    expect(JSON.parse((await sse.next((e) => e.event === 'archived')).data)).toEqual({});
    // The service refuses messages to a closed conversation (409): the widget hears "archived", not a failure.
    const late = await call(base, 'POST', '/api/messages', { token: s.token, body: { text: 'one more thing' } });
    expect([late.status, late.body.error.code]).toEqual([409, 'conversation_archived']);
    sse.close();
  });
});

describe('POST /api/token', () => {
  it('rotates: the new pair works, the old refresh token is refused', async () => {
    const s = await newSession();
    const first = await call(base, 'POST', '/api/token', { body: { refreshToken: s.refreshToken } });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['expiresAt', 'refreshToken', 'token']);
    expect((await call(base, 'GET', '/api/messages', { token: first.body.token })).status).toBe(200);
    const again = await call(base, 'POST', '/api/token', { body: { refreshToken: s.refreshToken } });
    expect([again.status, again.body.error.code]).toEqual([401, 'refresh_token_reused']);
    const wrong = await call(base, 'POST', '/api/token', { body: { refreshToken: s.token } });
    expect([wrong.status, wrong.body.error.code]).toEqual([401, 'invalid_token']);
    expect((await call(base, 'POST', '/api/token', { body: {} })).status).toBe(400);
  });
});

describe('event stream replay', () => {
  it('a reconnect with Last-Event-ID gets every later event in order, none twice', async () => {
    const s = await newSession();
    const first = await openSse(`${base}/api/events?token=${s.token}`);
    const bot = await first.next((e) => JSON.parse(e.data).role === 'bot');
    first.close();
    await call(base, 'POST', '/api/messages', { token: s.token, body: { text: 'while away' } });
    // Stored before the reconnects, so they replay it: the service's history has the question and an answer after it.
    await until('the answer while away', async () => {
      const items: Array<{ role: string; text?: string }> = (await call(base, 'GET', '/api/messages?limit=50', { token: s.token })).body.items;
      const asked = items.findIndex((m) => m.text === 'while away');
      return asked >= 0 && items.slice(asked + 1).some((m) => m.role === 'bot');
    });
    const resumes: Array<{ headers: Record<string, string>; q: string }> = [
      { headers: { 'last-event-id': bot.id! }, q: '' },
      { headers: {}, q: `&lastEventId=${bot.id}` },
    ];
    for (const resume of resumes) {
      const again = await openSse(`${base}/api/events?token=${s.token}${resume.q}`, resume.headers);
      await again.next((e) => JSON.parse(e.data).text === 'while away');
      await again.next((e) => JSON.parse(e.data).role === 'bot');
      const ids = again.events.map((e) => Number(e.id));
      expect(ids[0]).toBe(Number(bot.id) + 1);
      expect(ids).toEqual(ids.map((_, i) => ids[0]! + i)); // consecutive: in order, none missing, none twice
      expect(again.events.every((e) => Number(e.id) > Number(bot.id))).toBe(true);
      again.close();
    }
    const full = await openSse(`${base}/api/events?token=${s.token}`);
    await full.next((e) => JSON.parse(e.data).text === 'while away');
    expect(Number(full.events[0]!.id)).toBeLessThan(Number(bot.id)); // from the log's first event
    full.close();
    const bad = await openSse(`${base}/api/events?token=${s.token}`, { 'last-event-id': 'abc' });
    expect(bad.status).toBe(400);
  });

  it('sends heartbeat comments and a retry hint', async () => {
    const s = await newSession();
    const sse = await openSse(`${base}/api/events?token=${s.token}`);
    await until('a heartbeat (HEARTBEAT_SEC=1)', () => sse.comments >= 1);
    expect(sse.raw.startsWith('retry: 2000\n\n')).toBe(true);
    sse.close();
  });
});

describe('POST /webhooks/agent', () => {
  const envelope = (conversation: number | string, eventId: string, message = 'from webhook') => ({
    event: 'message.added',
    eventId,
    sessionId: conversation,
    createdAt: Date.now(),
    data: { messageId: `m-${eventId}`, message, hbo: 'operator', username: 'Grace' },
  });

  it('stores and delivers a verified event once, however often it is posted', async () => {
    const s = await newSession();
    const sse = await openSse(`${base}/api/events?token=${s.token}`);
    const id = `evt-${Math.random()}`;
    expect(await postWebhook(base, envelope(Number(s.sessionId), id))).toEqual({ status: 200, body: { ok: true } });
    expect(await postWebhook(base, envelope(Number(s.sessionId), id))).toEqual({ status: 200, body: { ok: true, duplicate: true } });
    const e = await sse.next((x) => JSON.parse(x.data).id === `m-${id}`);
    expect(JSON.parse(e.data)).toMatchObject({ role: 'operator', operatorName: 'Grace', text: 'from webhook' });
    // A later webhook comes after any second copy of the first on the stream.
    const marker = `evt-${Math.random()}`;
    expect((await postWebhook(base, envelope(Number(s.sessionId), marker))).status).toBe(200);
    await sse.next((x) => JSON.parse(x.data).id === `m-${marker}`);
    expect(sse.events.filter((x) => JSON.parse(x.data).id === `m-${id}`)).toHaveLength(1);
    sse.close();
  });

  it('integer sessionId and string session name the same conversation', async () => {
    const s = await newSession();
    const sse = await openSse(`${base}/api/events?token=${s.token}`);
    await postWebhook(base, envelope(String(s.sessionId), `str-${Math.random()}`, 'as string'));
    await postWebhook(base, envelope(Number(s.sessionId), `int-${Math.random()}`, 'as integer'));
    await sse.next((e) => JSON.parse(e.data).text === 'as string');
    await sse.next((e) => JSON.parse(e.data).text === 'as integer');
    sse.close();
  });

  it('refuses bad signatures and stale timestamps with 401, storing nothing', async () => {
    const s = await newSession();
    const id = `bad-${Math.random()}`;
    const forged = await postWebhook(base, envelope(Number(s.sessionId), id), { secret: 'wrong' });
    expect([forged.status, forged.body.error.code]).toEqual([401, 'invalid_signature']);
    const stale = await postWebhook(base, envelope(Number(s.sessionId), id), { timestamp: String(Math.floor(Date.now() / 1000) - 301) });
    expect([stale.status, stale.body.error.code]).toEqual([401, 'stale_timestamp']);
    const unsigned = await fetch(`${base}/webhooks/agent`, { method: 'POST', body: JSON.stringify(envelope(1, id)) });
    expect(unsigned.status).toBe(401);
    // Not stored: the same event id is accepted as new afterwards.
    expect((await postWebhook(base, envelope(Number(s.sessionId), id))).body).toEqual({ ok: true });
  });

  it('400 for bad JSON with a valid signature, 413 over 1 MiB, 200 and ignored for unknown kinds and unusable events', async () => {
    expect((await postWebhook(base, undefined, { raw: '{"event":' })).body.error.code).toBe('invalid_json');
    expect((await postWebhook(base, undefined, { raw: '[1,2]' })).status).toBe(400);
    // Well-formed but unusable (no conversation): acknowledged and left out, so it is not resent forever.
    expect(await postWebhook(base, { event: 'message.added', eventId: 'x' })).toEqual({ status: 200, body: { ok: true, ignored: true } });
    const big = await postWebhook(base, undefined, { raw: JSON.stringify({ event: 'message.added', pad: 'x'.repeat(1024 * 1024) }) });
    expect([big.status, big.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(await postWebhook(base, { event: 'billing.invoice', eventId: 'u1', sessionId: 1, data: {} })).toEqual({ status: 200, body: { ok: true, ignored: true } });
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let guarded: RunningServer;
  beforeAll(async () => {
    guarded = await startBff({ METRICS_TOKEN: 'metrics token 0123456789' });
  });
  afterAll(() => guarded.stop());

  it('answers only `Bearer <token>` (the scheme in any case), else 401 unauthorized', async () => {
    for (const authorization of [undefined, 'Bearer wrong', 'Bearer metrics token 012345678', 'Basic metrics token 0123456789', 'Bearer metrics token 0123456789x']) {
      const res = await call(guarded.url, 'GET', '/metrics', { headers: authorization ? { authorization } : {} });
      expect([res.status, res.body.error?.code]).toEqual([401, 'unauthorized']);
    }
    for (const authorization of ['Bearer metrics token 0123456789', 'bearer metrics token 0123456789']) {
      const res = await call(guarded.url, 'GET', '/metrics', { headers: { authorization } });
      expect(res.status).toBe(200);
      expect(res.body).toContain('parley_webhooks_total');
    }
  });
});

describe('origins and rate limits', () => {
  let strict: RunningServer;
  beforeAll(async () => {
    strict = await startBff({ ALLOWED_ORIGINS: 'http://shop.test', PUBLIC_ORIGIN: 'https://chat.shop.test', RATE_LIMIT_SESSIONS_PER_MIN: '3', RATE_LIMIT_MESSAGES_PER_MIN: '2' });
  });
  afterAll(() => strict.stop());

  it('answers CORS only for allowed origins and refuses a new conversation from a foreign one', async () => {
    const pre = await fetch(`${strict.url}/api/session`, { method: 'OPTIONS', headers: { origin: 'http://shop.test', 'access-control-request-method': 'POST' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('http://shop.test');
    const foreign = await call(strict.url, 'POST', '/api/session', { body: { text: 'hi' }, headers: { origin: 'http://evil.test' } });
    expect([foreign.status, foreign.body.error.code]).toEqual([403, 'origin_not_allowed']);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    // The refusal depends on the Origin too: a shared cache must not hand it to the shop.
    expect(foreign.headers.get('vary')).toMatch(/\bOrigin\b/);
  });

  it('lets the allowlist and PUBLIC_ORIGIN decide, never Host or X-Forwarded-Host', async () => {
    const forged = await call(strict.url, 'POST', '/api/session', { body: { text: 'hi' }, headers: { origin: 'https://evil.example', 'x-forwarded-host': 'evil.example' } });
    expect([forged.status, forged.body.error.code, forged.headers.get('access-control-allow-origin')]).toEqual([403, 'origin_not_allowed', null]);
    const ownHost = await call(strict.url, 'POST', '/api/session', { body: { text: 'hi' }, headers: { origin: `http://127.0.0.1:${strict.port}` } });
    expect([ownHost.status, ownHost.body.error.code]).toEqual([403, 'origin_not_allowed']);
    const pre = await fetch(`${strict.url}/api/session`, { method: 'OPTIONS', headers: { origin: 'https://chat.shop.test', 'access-control-request-method': 'POST' } });
    expect([pre.status, pre.headers.get('access-control-allow-origin')]).toEqual([204, 'https://chat.shop.test']);
  });

  it('binds the token to the origin that minted it', async () => {
    const s = await call(strict.url, 'POST', '/api/session', { body: { text: 'hi' }, headers: { origin: 'http://shop.test' } });
    expect(s.status).toBe(201);
    expect((await call(strict.url, 'GET', '/api/messages', { token: s.body.token, headers: { origin: 'http://shop.test' } })).status).toBe(200);
    const other = await call(strict.url, 'GET', '/api/messages', { token: s.body.token, headers: { origin: `http://127.0.0.1:${strict.port}` } });
    expect([other.status, other.body.error.code]).toEqual([403, 'origin_not_allowed']);
  });

  it('429 with Retry-After past the per-minute limits', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 4; i++) {
      last = await call(strict.url, 'POST', '/api/session', { body: { text: 'hi' }, headers: { origin: 'http://shop.test' } });
      statuses.push(last.status);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(last!.body.error.code).toBe('rate_limited');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the client IP behind a proxy (TRUST_PROXY)', () => {
  let proxied: RunningServer;
  beforeAll(async () => {
    proxied = await startBff({ TRUST_PROXY: 'true', RATE_LIMIT_SESSIONS_PER_MIN: '2' });
  });
  afterAll(() => proxied.stop());

  it('counts the address the proxy appended: a client that writes its own X-Forwarded-For gains nothing', async () => {
    startOfAMinute();
    onTestFinished(() => void vi.useRealTimers());
    const start = (forwardedFor: string) => call(proxied.url, 'POST', '/api/session', { body: { text: 'hi' }, headers: { 'x-forwarded-for': forwardedFor } });
    // As nginx's $proxy_add_x_forwarded_for writes it: whatever the client sent, then the address nginx saw.
    const statuses = [];
    for (const spoofed of ['1.1.1.1', '2.2.2.2', '3.3.3.3']) statuses.push((await start(`${spoofed}, 198.51.100.7`)).status);
    expect(statuses).toEqual([201, 201, 429]);
    // Another client behind the same proxy has its own allowance.
    expect((await start('198.51.100.8')).status).toBe(201);
  });
});

describe('limits on the other conversation calls', () => {
  let slow: RunningServer;
  beforeAll(async () => {
    slow = await startBff({ RATE_LIMIT_MESSAGES_PER_MIN: '1' }); // calls 4/min, stream opens 2/min
  });
  afterAll(() => slow.stop());

  it('history, variables, escalation and archive share 4× the message rate; stream opens 2×', async () => {
    startOfAMinute();
    onTestFinished(() => void vi.useRealTimers());
    const s = (await call(slow.url, 'POST', '/api/session', { body: { text: 'hi' } })).body as { token: string };
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(slow.url, 'GET', '/api/messages', { token: s.token })).status);
    statuses.push((await call(slow.url, 'POST', '/api/escalate', { token: s.token })).status);
    const over = await call(slow.url, 'GET', '/api/messages', { token: s.token });
    expect(statuses).toEqual([200, 200, 200, 202]);
    expect([over.status, over.body.error.code, Number(over.headers.get('retry-after')) > 0]).toEqual([429, 'rate_limited', true]);

    const opens: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${slow.url}/api/events?token=${s.token}`);
      opens.push(res.status);
      await res.body?.cancel();
    }
    expect(opens).toEqual([200, 200, 429]);
  });
});
