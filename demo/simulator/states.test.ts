import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type Simulator } from './index.js';
import { startReceiver, type Receiver } from './testing.js';

let sim: Simulator;
let receiver: Receiver;

async function setup(options: { teamHere?: () => boolean } = {}): Promise<void> {
  receiver = await startReceiver();
  sim = createSimulator({ accessToken: 't', botKey: 'b', webhookSecret: 's', webhookUrl: receiver.url, duplicateRate: 0, replyDelayMs: 5, retryBaseMs: 5, ...options });
}

afterEach(async () => {
  await sim?.close();
  await receiver?.close();
});

function call(method: string, path: string, body?: unknown, auth = true): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (auth) headers.authorization = 'Bearer t';
  return Promise.resolve(sim.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}
const send = (body: Record<string, unknown>) => call('POST', '/v1/bots/b/messages/', { webhookOnly: true, ...body });
/** The console's side (the operator routes), which takes no bearer token. */
const fetchOperator = (method: string, path: string, body?: unknown) => call(method, path, body, false);
const events = (kind: string) => receiver.received.filter((h) => h.body.event === kind);

describe('escalation and the operator', () => {
  it('emits state_changed, stops the agent, and delivers operator messages with hbo operator', async () => {
    await setup();
    await send({ message: 'hi' });
    await sim.idle();
    const res = await call('PATCH', '/v1/conversations/1001', { state: 'escalated', operatorEmail: 'ops@example.com' });
    expect(res.status).toBe(200);
    await sim.idle();
    expect(events('conversation.state_changed').map((h) => h.body.data)).toEqual([{ state: 'escalated', operatorEmail: 'ops@example.com' }]);
    const botBefore = events('message.added').length;

    // The user keeps writing: the message is stored, the agent stays silent.
    expect((await send({ message: 'buttons please', session: '1001' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 40));
    await sim.idle();
    expect(events('message.added')).toHaveLength(botBefore);
    expect(sim.conversation(1001)?.conversation.unread).toBeGreaterThan(0);

    const reply = await call('POST', '/operator/conversations/1001/messages', { text: 'Hi, I am Maya. How can I help?', name: 'Maya' }, false);
    expect(reply.status).toBe(201);
    await sim.idle();
    const last = events('message.added').pop();
    expect(last?.body.data).toMatchObject({ hbo: 'operator', username: 'Maya', message: 'Hi, I am Maya. How can I help?' });

    const history = (await (await call('GET', '/v1/conversations/1001/messages?limit=1')).json()) as { messages: unknown[] };
    // The service's history does not name operators; only the event does (the BFF remembers it).
    expect(history.messages[0]).toMatchObject({ hbo: 'operator', message: 'Hi, I am Maya. How can I help?' });
    expect(history.messages[0]).not.toHaveProperty('username');
  });

  it('a request for a person hands over at once: state_changed, the notice, and no scripted reply', async () => {
    await setup();
    await send({ message: 'I would like to talk to a human' });
    await new Promise((r) => setTimeout(r, 40));
    await sim.idle();
    expect(events('conversation.state_changed').map((h) => h.body.data)).toEqual([{ state: 'escalated', operatorEmail: 'support@nimbus-outdoor.example' }]);
    expect(events('message.added').map((h) => String(h.body.data.message))).toEqual(['Connecting you to a human. A member of our team will reply here.']);
    expect(sim.conversation(1001)?.conversation.state).toBe('escalated');
  });

  it('while the team is away, the hand-off notice promises no answer now', async () => {
    await setup({ teamHere: () => false });
    await send({ message: 'Talk to a person' });
    await new Promise((r) => setTimeout(r, 40));
    await sim.idle();
    const notices = events('message.added').map((h) => String(h.body.data.message));
    expect(notices).toEqual([expect.stringMatching(/^Our team is away right now/)]);
    expect(notices[0]).not.toMatch(/will reply here|Connecting/);
  });

  it('an operator taking a conversation over posts no notice: their own message is the one news (one unread)', async () => {
    await setup();
    await send({ message: 'hi' });
    await sim.idle();
    const before = events('message.added').length;
    expect((await fetchOperator('POST', '/operator/conversations/1001/escalate', { name: 'theo' })).status).toBe(200);
    sim.operatorReply(1001, { text: 'Hi, Theo here. Can I help with your order?', name: 'theo' });
    await sim.idle();
    expect(events('message.added').slice(before).map((h) => h.body.data)).toEqual([expect.objectContaining({ hbo: 'operator', message: 'Hi, Theo here. Can I help with your order?' })]);
  });

  it('cancels an agent reply that was still pending when the conversation was escalated', async () => {
    await setup();
    await send({ message: 'hi' });
    await sim.idle();
    const before = events('message.added').length;
    await send({ message: 'where is my order?', session: '1001' });
    await call('PATCH', '/v1/conversations/1001', { state: 'escalated', operatorEmail: 'ops@example.com' });
    await new Promise((r) => setTimeout(r, 40));
    await sim.idle();
    // Only the "connecting you" notice, not the order answer.
    const added = events('message.added').slice(before).map((h) => String(h.body.data.message));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/human/i);
  });

  it('names who has the conversation: the operator who took it over, else the first to answer', async () => {
    await setup();
    await send({ message: 'hi' });
    await send({ message: 'hello', session: '1001' });
    const taken = await call('POST', '/operator/conversations/1001/escalate', { name: 'theo' }, false);
    expect(((await taken.json()) as { conversation: Record<string, unknown> }).conversation).toMatchObject({ state: 'escalated', operatorName: 'theo' });
    expect((await call('POST', '/operator/conversations/1001/escalate', { name: 7 }, false)).status).toBe(400);

    // Handed over by the visitor (the BFF's escalate): it waits in the team's queue until an operator answers.
    await send({ message: 'Where is my order?' });
    await sim.idle();
    await call('PATCH', '/v1/conversations/1002', { state: 'escalated', operatorEmail: 'support@nimbus-outdoor.example' });
    const queued = sim.conversation(1002)?.conversation;
    expect([queued?.state, queued?.operatorName]).toEqual(['escalated', undefined]);
    await call('POST', '/operator/conversations/1002/messages', { text: 'Hi, Mara here', name: 'mara' }, false);
    await call('POST', '/operator/conversations/1002/messages', { text: 'Theo too', name: 'theo' }, false);
    expect(sim.conversation(1002)?.conversation.operatorName).toBe('mara');
  });

  it.each([
    ['the chosen operator', { name: 'theo' }, 'theo', 'theo@nimbus-outdoor.example'],
    ['a username that is an address', { name: 'Ada@Example.com' }, 'Ada@Example.com', 'ada@example.com'],
    ['the default operator', undefined, 'mara', 'mara@nimbus-outdoor.example'],
    ['an address given outright', { name: 'theo', operatorEmail: 'desk@example.com' }, 'theo', 'desk@example.com'],
  ])('a take-over is escalated to the operator who took it (%s), not the team queue', async (_label, body, name, email) => {
    await setup();
    await send({ message: 'hi' });
    await sim.idle();
    const taken = await call('POST', '/operator/conversations/1001/escalate', body, false);
    expect(((await taken.json()) as { conversation: Record<string, unknown> }).conversation).toMatchObject({ operatorName: name, operatorEmail: email });
    await sim.idle();
    expect(events('conversation.state_changed').map((h) => h.body.data)).toEqual([{ state: 'escalated', operatorEmail: email }]);
  });

  it('refuses operator messages before escalation and validates operator input', async () => {
    await setup();
    await send({ message: 'hi' });
    const early = await call('POST', '/operator/conversations/1001/messages', { text: 'hello' }, false);
    expect(early.status).toBe(409);
    expect(((await early.json()) as { error: { code: string } }).error.code).toBe('not_escalated');
    expect((await call('POST', '/operator/conversations/1001/escalate', undefined, false)).status).toBe(200);
    for (const bad of [{}, { text: '' }, { badge: 'fireworks' }, { text: 'a', badge: 'card' }, { text: 5 }]) {
      const res = await call('POST', '/operator/conversations/1001/messages', bad, false);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(await res.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
    }
    expect((await call('POST', '/operator/conversations/9999/messages', { text: 'x' }, false)).status).toBe(404);
    const badge = await call('POST', '/operator/conversations/1001/messages', { badge: 'carousel' }, false);
    expect(badge.status).toBe(201);
    await sim.idle();
    const json = JSON.parse(String(events('message.added').pop()?.body.data.message)) as Record<string, unknown>;
    expect(json.type ?? json.kind).toBe('carousel');
  });

  it('refuses what a foreign page could send to the console routes (CSRF): 403 cross-site, 415 not JSON; nothing changes', async () => {
    await setup();
    await send({ message: 'hi' });
    await sim.app.request('/operator/conversations/1001/escalate', { method: 'POST' });
    const operator = (headers: Record<string, string>, body = '{"text":"pwned"}') =>
      sim.app.request('http://sim.test/operator/conversations/1001/messages', { method: 'POST', headers, body });
    const refusals = [
      [await operator({ 'content-type': 'application/json', origin: 'https://evil.example' }), 403, 'cross_site_refused'],
      [await operator({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }), 403, 'cross_site_refused'],
      [await operator({ 'content-type': 'text/plain' }), 415, 'unsupported_media_type'],
      [await sim.app.request('/operator/conversations/1001/archive', { method: 'POST', headers: { origin: 'null' } }), 403, 'cross_site_refused'],
      [await sim.app.request('/__faults', { method: 'DELETE', headers: { 'sec-fetch-site': 'cross-site' } }), 403, 'cross_site_refused'],
    ] as const;
    for (const [res, status, code] of refusals) expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([status, code]);
    expect(sim.conversation('1001')?.messages.some((m) => m.message === 'pwned')).toBe(false);
    expect(sim.conversation('1001')?.conversation.state).toBe('escalated');
    // The console's own page: same origin.
    expect((await operator({ 'content-type': 'application/json', origin: 'http://sim.test', 'sec-fetch-site': 'same-origin' })).status).toBe(201);
  });

  it('rejects an escalation without an operator e-mail', async () => {
    await setup();
    await send({ message: 'hi' });
    expect((await call('PATCH', '/v1/conversations/1001', { state: 'escalated' })).status).toBe(400);
    expect((await call('PATCH', '/v1/conversations/1001', { state: 'sleeping' })).status).toBe(400);
  });
});

describe('archive', () => {
  it.each([{ state: 'archived' }, { archived: true }])('archives with %j, emits conversation.archived once, then refuses messages with 409', async (body) => {
    await setup();
    await send({ message: 'hi' });
    expect((await call('PATCH', '/v1/conversations/1001', body)).status).toBe(200);
    expect((await call('PATCH', '/v1/conversations/1001', body)).status).toBe(200);
    await sim.idle();
    expect(events('conversation.archived')).toHaveLength(1);
    expect(events('conversation.archived')[0]?.body.sessionId).toBe(1001);
    const late = await send({ message: 'still there?', session: '1001' });
    expect(late.status).toBe(409);
    expect(((await late.json()) as { error: { code: string } }).error.code).toBe('conversation_archived');
    expect(sim.conversations()[0]?.state).toBe('archived');
  });

  it('lets the operator archive from the console', async () => {
    await setup();
    await send({ message: 'hi' });
    expect((await call('POST', '/operator/conversations/1001/archive', undefined, false)).status).toBe(200);
    await sim.idle();
    expect(events('conversation.archived')[0]?.body.data).toMatchObject({ archivedBy: 'operator' });
  });
});

describe('fault injection', () => {
  it('answers the next N REST calls with the injected status, then recovers', async () => {
    await setup();
    const inject = await call('POST', '/__faults', { status: 503, count: 2 }, false);
    expect(inject.status).toBe(201);
    expect((await send({ message: 'a' })).status).toBe(503);
    expect((await call('GET', '/v1/conversations/1001/messages')).status).toBe(503);
    expect((await send({ message: 'b' })).status).toBe(200);
  });

  it('sends Retry-After with an injected 429, and the method form works too', async () => {
    await setup();
    sim.injectFault({ status: 429, retryAfter: 3 });
    const res = await send({ message: 'a' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('injected_fault');
    expect((await send({ message: 'a' })).status).toBe(200);
  });

  it('can delay calls, be cleared, and refuses a bad spec', async () => {
    await setup();
    sim.injectFault({ delayMs: 60 });
    const started = Date.now();
    expect((await send({ message: 'slow' })).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    sim.injectFault({ status: 500, count: 5 });
    expect((await call('DELETE', '/__faults', undefined, false)).status).toBe(200);
    expect((await send({ message: 'ok' })).status).toBe(200);
    for (const bad of [{ status: 200 }, { status: 503, count: 0 }, { count: 2 }, { status: 429, retryAfter: -1 }]) {
      expect((await call('POST', '/__faults', bad, false)).status, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe('operator API', () => {
  it('lists conversations with state, last message and unread count, and shows one with its deliveries', async () => {
    await setup();
    await send({ message: 'hi', profileName: 'Ana' });
    await sim.idle();
    const list = (await (await call('GET', '/operator/conversations', undefined, false)).json()) as { conversations: Record<string, unknown>[] };
    expect(list.conversations[0]).toMatchObject({ id: 1001, state: 'active', profileName: 'Ana', unread: 1, lastMessage: { hbo: 'bot' } });
    const one = (await (await call('GET', '/operator/conversations/1001', undefined, false)).json()) as { messages: unknown[]; deliveries: unknown[] };
    expect(one.messages.length).toBeGreaterThanOrEqual(2);
    expect(one.deliveries.length).toBeGreaterThanOrEqual(2);
    expect(sim.conversation(1001)?.conversation.unread).toBe(0);
    const deliveries = (await (await call('GET', '/operator/deliveries?limit=2', undefined, false)).json()) as { deliveries: unknown[] };
    expect(deliveries.deliveries).toHaveLength(2);
    expect((await call('GET', '/operator/deliveries?limit=0', undefined, false)).status).toBe(400);
  });

  it("previews the agent's last answer as the text a reader sees, without its Markdown", async () => {
    await setup();
    await send({ message: 'How do returns work?' });
    await sim.idle();
    const list = (await (await call('GET', '/operator/conversations', undefined, false)).json()) as { conversations: { lastMessage: { preview: string } }[] };
    // The agent wrote "Returns are free within **60 days**:\n\n1. Open [your orders](https://…)\n2. Choose _Return an item_ …".
    expect(list.conversations[0]!.lastMessage.preview).toBe('Returns are free within 60 days: Open your orders Choose Return an item Drop th…');
  });
});
