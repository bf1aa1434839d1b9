import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { openSse } from '../helpers/sse.js';
import { until } from '../helpers/wait.js';

let bff: RunningServer;
let base: string;
const fault = (spec: Record<string, unknown>) => call(base, 'POST', '/sim/__faults', { body: spec });

beforeAll(async () => {
  // Every webhook is delivered twice by the simulator; timeouts short so 504 is quick, yet long
  // enough that an answer from the simulator in this process is never late on a busy CI machine.
  // An empty ESCALATION_OPERATOR_EMAIL switches off the demo's default escalation.
  bff = await startBff({ SIM_DUPLICATE_RATE: '1', UPSTREAM_TIMEOUT_MS: '1000', UPSTREAM_RETRIES: '2', RATE_LIMIT_SESSIONS_PER_MIN: '1000', ESCALATION_OPERATOR_EMAIL: '' });
  base = bff.url;
});
afterAll(() => bff.stop());

describe('upstream failures', () => {
  it('retries 503 and 429 (honouring Retry-After) and then succeeds', async () => {
    await fault({ status: 503, count: 1 });
    await fault({ status: 429, count: 1, retryAfter: 1 });
    const started = Date.now();
    const res = await call(base, 'POST', '/api/session', { body: { text: 'hello' } });
    expect(res.status).toBe(201);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950); // waited for Retry-After: 1
    const metrics = await call(base, 'GET', '/metrics');
    expect(metrics.body).toMatch(/parley_upstream_requests_total\{target="agent",operation="send",status="503"\} 1/);
    expect(metrics.body).toMatch(/parley_upstream_requests_total\{target="agent",operation="send",status="429"\} 1/);
  });

  it('gives up after the retries with a clear 503 and no upstream detail', async () => {
    await fault({ status: 503, count: 3 });
    const res = await call(base, 'POST', '/api/session', { body: { text: 'hello' } });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: { code: 'upstream_unavailable', message: expect.any(String) } });
    expect(JSON.stringify(res.body)).not.toContain('injected');
  });

  it('401/403 are retried, then reported as 502 upstream_error', async () => {
    await fault({ status: 401, count: 3 });
    const res = await call(base, 'POST', '/api/session', { body: { text: 'hello' } });
    expect([res.status, res.body.error.code]).toEqual([502, 'upstream_error']);
  });

  it('a conversation the service no longer knows (404) is 410 conversation_gone; one it closed (409) stays 409 conversation_archived', async () => {
    const s = (await call(base, 'POST', '/api/session', { body: { text: 'hello' } })).body;
    await fault({ status: 404, count: 1 });
    const gone = await call(base, 'POST', '/api/messages', { token: s.token, body: { text: 'still there?' } });
    expect([gone.status, gone.body.error.code]).toEqual([410, 'conversation_gone']);
    await fault({ status: 409, count: 1 });
    const closed = await call(base, 'POST', '/api/messages', { token: s.token, body: { text: 'still there?' } });
    expect([closed.status, closed.body.error.code]).toEqual([409, 'conversation_archived']);
  });

  it('a send that timed out is not repeated and is reported as may-have-been-sent', async () => {
    const s = (await call(base, 'POST', '/api/session', { body: { text: 'hello' } })).body;
    await fault({ delayMs: 2000, count: 1 }); // past UPSTREAM_TIMEOUT_MS
    const res = await call(base, 'POST', '/api/messages', { token: s.token, body: { text: 'slow one' } });
    expect([res.status, res.body.error.code]).toEqual([502, 'send_uncertain']);
    // A repeat would have been sent before the 502, without the delay: it would be there by the time the first is.
    await until('the delayed call completes upstream', async () => (await copiesUpstream(s.sessionId, 'slow one')) > 0);
    expect(await copiesUpstream(s.sessionId, 'slow one')).toBe(1);
  });

  it('a send whose connection is reset after the service took it reaches the service once, and then the stream, found in its history', async () => {
    const s = (await call(base, 'POST', '/api/session', { body: { text: 'hello' } })).body;
    const sse = await openSse(`${base}/api/events?token=${s.token}`);
    await fault({ reset: true, count: 3 });
    const res = await call(base, 'POST', '/api/messages', { token: s.token, body: { text: 'reset one', clientId: 'c_reset' } });
    expect([res.status, res.body.error.code]).toEqual([502, 'send_uncertain']);
    expect(await copiesUpstream(s.sessionId, 'reset one')).toBe(1);
    await call(base, 'DELETE', '/sim/__faults');
    // Every tab sees it, as if the send had been answered; the sending tab's copy is confirmed by its clientId.
    const shown = JSON.parse((await sse.next((e) => e.event === 'message' && JSON.parse(e.data).text === 'reset one', 10_000)).data);
    expect(shown).toMatchObject({ role: 'user', clientId: 'c_reset', author: { kind: 'user' } });
    sse.close();
  });

  it('a reading call is retried after a timeout', async () => {
    const s = (await call(base, 'POST', '/api/session', { body: { text: 'hello' } })).body;
    await fault({ delayMs: 2000, count: 1 }); // past UPSTREAM_TIMEOUT_MS
    const res = await call(base, 'GET', '/api/messages', { token: s.token });
    expect(res.status).toBe(200);
  });
});

/** How many times the service holds a user message with `text` in the conversation. */
async function copiesUpstream(sessionId: string, text: string): Promise<number> {
  const record = await call(base, 'GET', `/sim/operator/conversations/${sessionId}`);
  return record.body.messages.filter((m: { text?: string; message?: string }) => (m.text ?? m.message) === text).length;
}

describe('duplicate deliveries from the service', () => {
  it('each event reaches the stream once although every webhook arrives twice', async () => {
    const s = (await call(base, 'POST', '/api/session', { body: { text: 'show me buttons' } })).body;
    const sse = await openSse(`${base}/api/events?token=${s.token}`);
    await sse.next((e) => JSON.parse(e.data).role === 'bot');
    const duplicates = async () => Number(/parley_webhooks_total\{outcome="duplicate"\} (\d+)/.exec((await call(base, 'GET', '/metrics')).body as string)?.[1] ?? 0);
    await until('a second delivery of some event', async () => (await duplicates()) > 0);
    // A later message's answer comes after everything before it on the stream, duplicates of it included.
    const before = sse.events.length;
    await call(base, 'POST', '/api/messages', { token: s.token, body: { text: 'marker' } });
    await sse.next((e) => JSON.parse(e.data).text === 'marker');
    await sse.next((e) => sse.events.indexOf(e) >= before && JSON.parse(e.data).role === 'bot');
    const ids = sse.events.map((e) => JSON.parse(e.data).id);
    expect(new Set(ids).size).toBe(ids.length);
    sse.close();
  });
});

describe('escalation off', () => {
  it('POST /api/escalate is 403 feature_disabled and config says so', async () => {
    const s = (await call(base, 'POST', '/api/session', { body: { text: 'hello' } })).body;
    const res = await call(base, 'POST', '/api/escalate', { token: s.token });
    expect([res.status, res.body.error.code]).toEqual([403, 'feature_disabled']);
    expect((await call(base, 'GET', '/api/config')).body.features.escalation).toBe(false);
  });
});
