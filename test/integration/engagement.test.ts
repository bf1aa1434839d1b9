import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { openSse, type SseClient, type SseEvent } from '../helpers/sse.js';
import { until } from '../helpers/wait.js';
import { pageContext } from '../../bff/src/chat/model-chat.js';

// docs/api.md "Engagement" in model mode: votes on answers (log event, metrics, signed webhook) and Stop.
const KEY = 'sk-engagement-test-key';
const HOOK_SECRET = 'feedback-hook-secret-0123456789';

interface Delivery {
  headers: Record<string, string | string[] | undefined>;
  body: string;
  at: number;
}

/** A feedback receiver that answers 500 to the first `failFirst` POSTs, then 200. */
function startReceiver(): Promise<{ server: Server; url: string; deliveries: Delivery[]; failFirst: { n: number } }> {
  const deliveries: Delivery[] = [];
  const failFirst = { n: 0 };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body, at: Date.now() });
      res.statusCode = deliveries.length <= failFirst.n ? 500 : 200;
      res.end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/votes`, deliveries, failFirst })),
  );
}

let bff: RunningServer;
let base: string;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

const sim = (method: string, path: string, body?: unknown) => call(base, method, `/sim/__gateway${path}`, body === undefined ? {} : { body });
const data = (e: SseEvent) => JSON.parse(e.data);
const isBot = (e: SseEvent) => e.event === 'message' && data(e).role === 'bot';
const waitFor = async (check: () => boolean, timeoutMs: number) => {
  for (const until = Date.now() + timeoutMs; !check(); ) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
};

beforeAll(async () => {
  receiver = await startReceiver();
  bff = await startBff({ CHAT_MODE: 'model', GATEWAY_API_KEY: KEY, FEEDBACK_WEBHOOK_URL: receiver.url, FEEDBACK_WEBHOOK_SECRET: HOOK_SECRET });
  base = bff.url;
});
afterAll(async () => {
  await bff.stop();
  receiver.server.close();
});
beforeEach(async () => {
  await sim('POST', '/pace', { chunkDelayMs: 2 });
  await sim('DELETE', '/requests');
  receiver.deliveries.splice(0);
  receiver.failFirst.n = 0;
});

async function converse(text: string): Promise<{ token: string; sse: SseClient }> {
  const res = await call(base, 'POST', '/api/session', { body: { text } });
  expect(res.status).toBe(201);
  return { token: res.body.token, sse: await openSse(`${base}/api/events?token=${res.body.token}`) };
}

describe('POST /api/feedback', () => {
  it('refuses an unknown message, a user message, a bad value and a long comment with 400 and a code', async () => {
    const c = await converse('Hello');
    const answer = data(await c.sse.next(isBot, 10_000));
    const question = data(c.sse.events.find((e) => e.event === 'message' && data(e).role === 'user')!);
    const vote = (body: unknown) => call(base, 'POST', '/api/feedback', { token: c.token, body });

    expect(await vote({ messageId: 'b_nope', value: 'up' })).toMatchObject({ status: 400, body: { error: { code: 'unknown_message' } } });
    expect(await vote({ messageId: question.id, value: 'up' })).toMatchObject({ status: 400, body: { error: { code: 'unknown_message' } } });
    expect(await vote({ messageId: answer.id, value: 'meh' })).toMatchObject({ status: 400, body: { error: { code: 'feedback_invalid' } } });
    expect(await vote({ messageId: answer.id, value: 'down', comment: 'x'.repeat(1001) })).toMatchObject({ status: 400, body: { error: { code: 'comment_too_long' } } });
    expect(await vote({ value: 'up' })).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    expect((await call(base, 'POST', '/api/feedback', { body: { messageId: answer.id, value: 'up' } })).status).toBe(401);
    // Another conversation's answer is unknown here.
    const other = await converse('Other');
    expect((await call(base, 'POST', '/api/feedback', { token: other.token, body: { messageId: answer.id, value: 'up' } })).body.error.code).toBe('unknown_message');
    expect(c.sse.events.some((e) => e.event === 'feedback')).toBe(false);
    c.sse.close();
    other.sse.close();
  });

  it('stores the vote as a feedback event (the latest wins), counts it and answers before the webhook', async () => {
    const c = await converse('Rate me');
    const answer = data(await c.sse.next(isBot, 10_000));
    const metricsBefore = (await call(base, 'GET', '/metrics')).body as string;
    const upBefore = Number(/parley_feedback_total\{value="up"\} (\d+)/.exec(metricsBefore)?.[1] ?? 0);

    expect(await call(base, 'POST', '/api/feedback', { token: c.token, body: { messageId: answer.id, value: 'up' } })).toMatchObject({ status: 202, body: {} });
    const down = await call(base, 'POST', '/api/feedback', { token: c.token, body: { messageId: answer.id, value: 'down', comment: '  Too long\r\n' } });
    expect(down.status).toBe(202);

    await c.sse.next((e) => e.event === 'feedback' && data(e).value === 'down');
    const votes = c.sse.events.filter((e) => e.event === 'feedback').map(data);
    expect(votes).toEqual([{ messageId: answer.id, value: 'up' }, { messageId: answer.id, value: 'down', comment: 'Too long' }]);
    // A reload replays the log, so it sees both, in order: the widget keeps the latest.
    const replay = await openSse(`${base}/api/events?token=${c.token}`);
    await replay.next((e) => e.event === 'feedback' && data(e).value === 'down');
    replay.close();
    // History pages carry the latest vote too, for a tab that resumes after the events went by.
    const history = await call(base, 'GET', '/api/messages', { token: c.token });
    expect(history.body.items.find((m: { id: string }) => m.id === answer.id)).toMatchObject({ feedback: 'down' });

    const metrics = (await call(base, 'GET', '/metrics')).body as string;
    expect(metrics).toContain('# TYPE parley_feedback_total counter');
    expect(Number(/parley_feedback_total\{value="up"\} (\d+)/.exec(metrics)?.[1])).toBe(upBefore + 1);
    const downs = Number(/parley_feedback_total\{value="down"\} (\d+)/.exec(metrics)?.[1]);
    // The same vote again, now with a comment: stored, but not counted twice.
    expect((await call(base, 'POST', '/api/feedback', { token: c.token, body: { messageId: answer.id, value: 'down', comment: 'More' } })).status).toBe(202);
    const again = (await call(base, 'GET', '/metrics')).body as string;
    expect(Number(/parley_feedback_total\{value="down"\} (\d+)/.exec(again)?.[1])).toBe(downs);
    c.sse.close();
  });

  it('POSTs each vote to FEEDBACK_WEBHOOK_URL, signed, and retries after a 500', async () => {
    receiver.failFirst.n = 1;
    const delivered = async () => Number(/parley_feedback_forwards_total\{outcome="delivered"\} (\d+)/.exec((await call(base, 'GET', '/metrics')).body)?.[1] ?? 0);
    const before = await delivered();
    const c = await converse('Webhook please');
    const answer = data(await c.sse.next(isBot, 10_000));
    const started = Date.now();
    const res = await call(base, 'POST', '/api/feedback', { token: c.token, body: { messageId: answer.id, value: 'down', comment: 'Wrong size' } });
    expect(res.status).toBe(202);
    await waitFor(() => receiver.deliveries.length >= 2, 10_000);
    // The browser had its answer before the (failing) first delivery could have held it up.
    expect(receiver.deliveries[0]!.at).toBeGreaterThanOrEqual(started);

    for (const d of receiver.deliveries.slice(0, 2)) {
      const timestamp = d.headers['x-parley-timestamp'] as string;
      expect(timestamp).toMatch(/^\d{10}$/);
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
      const expected = createHmac('sha256', HOOK_SECRET).update(`${timestamp}.${d.body}`).digest('hex');
      expect(d.headers['x-parley-signature']).toBe(expected);
      expect(d.headers['content-type']).toBe('application/json');
      expect(JSON.parse(d.body)).toMatchObject({ messageId: answer.id, value: 'down', comment: 'Wrong size', sessionId: expect.stringMatching(/^m_/) });
    }
    // Counted once the forward is over (after its retry): then nothing more can be sent for this vote.
    await until('the forward counted as delivered', async () => (await delivered()) === before + 1);
    expect(receiver.deliveries).toHaveLength(2); // delivered on the retry, not again
    c.sse.close();
  });
});

describe('proactive message as context', () => {
  it('goes to the model with the first question, fenced in a user-role message, never in the system message', async () => {
    const res = await call(base, 'POST', '/api/session', { body: { text: 'Yes, which size?', context: 'Need help choosing a tent size?' } });
    expect(res.status).toBe(201);
    const sse = await openSse(`${base}/api/events?token=${res.body.token}`);
    await sse.next(isBot, 10_000);
    const [request] = ((await sim('GET', '/requests')).body.requests as Array<{ path: string; messages: Array<{ role: string; content: string }> }>).filter((r) => r.path === '/chat/completions');
    expect(request!.messages).toEqual([
      pageContext('Need help choosing a tent size?'),
      { role: 'user', content: 'Yes, which size?' },
    ]);
    expect(request!.messages.filter((m) => m.role === 'system').map((m) => m.content).join()).not.toContain('tent');
    expect(sse.events.filter((e) => e.event === 'message').map((e) => data(e).text)).not.toContain('Need help choosing a tent size?');
    const tooLong = await call(base, 'POST', '/api/session', { body: { text: 'Hi', context: 'x'.repeat(1001) } });
    expect(tooLong).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    sse.close();
  });
});

describe('POST /api/stop', () => {
  it('stops the streaming reply at once: the gateway stream is closed and the text so far is the stopped answer', async () => {
    await sim('POST', '/pace', { chunkDelayMs: 60 });
    const c = await converse('Tell me a long story');
    const firstDelta = await c.sse.next((e) => e.event === 'message_delta', 10_000);
    const stopAt = Date.now();
    expect(await call(base, 'POST', '/api/stop', { token: c.token })).toMatchObject({ status: 202, body: {} });
    const stopped = data(await c.sse.next(isBot, 2_000));
    expect(Date.now() - stopAt).toBeLessThan(200);
    expect(stopped).toMatchObject({ id: data(firstDelta).id, role: 'bot', stopped: true });
    const deltas = c.sse.events.filter((e) => e.event === 'message_delta' && data(e).id === stopped.id).map((e) => data(e).delta);
    expect(stopped.text).toBe(deltas.join(''));

    const [request] = ((await sim('GET', '/requests')).body.requests as Array<{ path: string; closedByClient?: boolean; framesSent?: number }>).filter((r) => r.path === '/chat/completions');
    // The BFF closed the gateway stream itself: nothing more of it can be read.
    expect(request!.closedByClient).toBe(true);
    expect(c.sse.events.some((e) => e.event === 'error')).toBe(false);

    // The next question carries the stopped answer in its history.
    await sim('POST', '/pace', { chunkDelayMs: 2 });
    expect((await call(base, 'POST', '/api/messages', { token: c.token, body: { text: 'Go on' } })).status).toBe(202);
    await c.sse.next((e) => isBot(e) && data(e).id !== stopped.id, 10_000);
    const requests = ((await sim('GET', '/requests')).body.requests as Array<{ path: string; messages?: Array<{ role: string; content: string }> }>).filter((r) => r.path === '/chat/completions');
    expect(requests[1]!.messages).toEqual([
      { role: 'user', content: 'Tell me a long story' },
      { role: 'assistant', content: stopped.text },
      { role: 'user', content: 'Go on' },
    ]);
    c.sse.close();
  });

  it('does nothing when no reply is streaming', async () => {
    const c = await converse('Short');
    const answer = await c.sse.next(isBot, 10_000);
    expect((await call(base, 'POST', '/api/stop', { token: c.token })).status).toBe(202);
    // The next question's answer comes after anything the stop could have written: the stream is in order.
    expect((await call(base, 'POST', '/api/messages', { token: c.token, body: { text: 'And another' } })).status).toBe(202);
    const next = await c.sse.next((e) => isBot(e) && e !== answer, 10_000);
    expect(c.sse.events.filter(isBot)).toEqual([answer, next]);
    expect([data(answer).stopped, data(next).stopped]).toEqual([undefined, undefined]);
    c.sse.close();
  });
});

describe('agent mode', () => {
  it('has nothing to stop: 403 feature_disabled', async () => {
    const agent = await startBff();
    try {
      const session = await call(agent.url, 'POST', '/api/session', { body: { text: 'Hi' } });
      expect(await call(agent.url, 'POST', '/api/stop', { token: session.body.token })).toMatchObject({ status: 403, body: { error: { code: 'feature_disabled' } } });
    } finally {
      await agent.stop();
    }
  });
});
