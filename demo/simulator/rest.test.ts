import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from './index.js';
import { startReceiver, type Receiver } from './testing.js';

const TOKEN = 'test-access-token';
const BOT = 'bot-key-123';
let sim: Simulator;
let receiver: Receiver;

async function setup(extra: Partial<Parameters<typeof createSimulator>[0]> = {}): Promise<void> {
  receiver = await startReceiver();
  sim = createSimulator({
    accessToken: TOKEN,
    botKey: BOT,
    webhookSecret: 'whsec',
    webhookUrl: receiver.url,
    duplicateRate: 0,
    replyDelayMs: 0,
    retryBaseMs: 5,
    ...extra,
  });
}

afterEach(async () => {
  await sim?.close();
  await receiver?.close();
});

function call(method: string, path: string, body?: unknown, token = TOKEN): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  return Promise.resolve(sim.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}

const send = (body: Record<string, unknown>, bot = BOT) => call('POST', `/v1/bots/${bot}/messages/`, body);

describe('auth', () => {
  it('answers 401 with a JSON error for a missing or wrong bearer token, on every REST path', async () => {
    await setup();
    for (const token of ['', 'wrong']) {
      const res = await call('POST', `/v1/bots/${BOT}/messages/`, { message: 'hi' }, token);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
      expect((await call('GET', '/v1/conversations/1001/messages', undefined, token)).status).toBe(401);
      expect((await call('PATCH', '/v1/conversations/1001', { state: 'archived' }, token)).status).toBe(401);
    }
    expect(sim.conversations()).toHaveLength(0);
  });

  it('answers 404 bot_not_found for a wrong bot key', async () => {
    await setup();
    const res = await send({ message: 'hi', webhookOnly: true }, 'not-the-key');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('bot_not_found');
  });
});

describe('send', () => {
  it('creates a conversation and acknowledges {session} as a string with webhookOnly', async () => {
    await setup();
    const res = await send({ message: 'hello', profileName: 'Ana', webhookOnly: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ session: '1001' });
    const hooks = await receiver.waitFor((r) => r.some((h) => h.body.event === 'message.added'));
    expect(hooks[0]?.body).toMatchObject({ event: 'conversation.created', sessionId: 1001, data: { profileName: 'Ana' } });
    expect(hooks.find((h) => h.body.event === 'message.added')?.body.data).toMatchObject({ hbo: 'bot' });
    // The second message continues the session instead of opening a new one.
    expect(await (await send({ message: 'again', session: '1001', webhookOnly: true })).json()).toEqual({ session: '1001' });
    expect(sim.conversations()).toHaveLength(1);
  });

  it('works without the trailing slash too', async () => {
    await setup();
    expect((await call('POST', `/v1/bots/${BOT}/messages`, { message: 'hi', webhookOnly: true })).status).toBe(200);
  });

  it('answers synchronously with the replies when webhookOnly is not set', async () => {
    await setup();
    const body = (await (await send({ message: 'where is my order?' })).json()) as { session: string; messages: { hbo: string; message: string }[] };
    expect(body.session).toBe('1001');
    expect(body.messages.length).toBe(2);
    expect(body.messages.every((m) => m.hbo === 'bot')).toBe(true);
    expect(body.messages[1]?.message).toContain('NO-48213');
  });

  it('validates the body and the session', async () => {
    await setup();
    for (const bad of [{}, { message: '' }, { message: '   ' }, { message: 42 }, { message: 'x', webhookUrl: 'ftp://x' }]) {
      expect((await send(bad)).status).toBe(400);
    }
    const invalidJson = await sim.app.request(`/v1/bots/${BOT}/messages/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: '{nope',
    });
    expect(invalidJson.status).toBe(400);
    const unknown = await send({ message: 'hi', session: '999999' });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('conversation_not_found');
  });
});

describe('history', () => {
  it('lists user and agent messages newest first, paged by limit and offset', async () => {
    await setup();
    await send({ message: 'first', webhookOnly: true });
    await sim.idle();
    await send({ message: 'second', session: '1001', webhookOnly: true });
    await sim.idle();
    const res = await call('GET', '/v1/conversations/1001/messages');
    const { messages } = (await res.json()) as { messages: { messageId: unknown; message: string; hbo: string; createdAt: number }[] };
    expect(messages.map((m) => m.hbo)).toEqual(['bot', 'user', 'bot', 'user']);
    expect(messages[1]?.message).toBe('second');
    expect(messages[3]?.message).toBe('first');
    for (const m of messages) expect(['number', 'string']).toContain(typeof m.messageId);
    expect(messages[0]!.createdAt).toBeGreaterThanOrEqual(messages[3]!.createdAt);

    const page = (await (await call('GET', '/v1/conversations/1001/messages?limit=2&offset=1')).json()) as { messages: { message: string }[] };
    expect(page.messages.map((m) => m.message)).toEqual([messages[1]?.message, messages[2]?.message]);
  });

  it('defaults to 20 items and refuses bad limit or offset', async () => {
    await setup();
    await send({ message: 'a', webhookOnly: true });
    for (let i = 0; i < 11; i++) await send({ message: `m${i}`, session: '1001', webhookOnly: true });
    await sim.idle();
    const all = (await (await call('GET', '/v1/conversations/1001/messages')).json()) as { messages: unknown[] };
    expect(all.messages).toHaveLength(20);
    for (const q of ['limit=0', 'limit=101', 'limit=abc', 'offset=-1', 'offset=1.5']) {
      expect((await call('GET', `/v1/conversations/1001/messages?${q}`)).status, q).toBe(400);
    }
    expect((await call('GET', '/v1/conversations/4242/messages')).status).toBe(404);
  });
});

describe('user variables', () => {
  it('answers {} and emits one user.variables.updated {name, value} per variable', async () => {
    await setup();
    await send({ message: 'hi', webhookOnly: true });
    const res = await call('PATCH', '/v1/conversations/1001/user', { plan: 'gold', age: 42 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({});
    const hooks = await receiver.waitFor((r) => r.filter((h) => h.body.event === 'user.variables.updated').length === 2);
    const data = hooks.filter((h) => h.body.event === 'user.variables.updated').map((h) => h.body.data);
    expect(data).toEqual([{ name: 'plan', value: 'gold' }, { name: 'age', value: 42 }]);
    expect((await call('PATCH', '/v1/conversations/1001/user', { nested: { a: 1 } })).status).toBe(400);
    expect((await call('PATCH', '/v1/conversations/1001/user', [1])).status).toBe(400);
  });
});
