import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { until } from '../helpers/wait.js';

let bff: RunningServer;
let base: string;
const fault = (spec: Record<string, unknown>) => call(base, 'POST', '/sim/__faults', { body: spec });
const start = (body: Record<string, unknown>) => call(base, 'POST', '/api/session', { body });
/** Conversations the simulator was asked to start or write into (its send calls that succeeded). */
async function sends(): Promise<number> {
  const metrics = (await call(base, 'GET', '/metrics')).body as string;
  return Number(/parley_upstream_requests_total\{target="agent",operation="send",status="200"\} (\d+)/.exec(metrics)?.[1] ?? 0);
}

beforeAll(async () => {
  bff = await startBff({ UPSTREAM_TIMEOUT_MS: '3000', UPSTREAM_RETRIES: '2', RATE_LIMIT_SESSIONS_PER_MIN: '1000', ESCALATION_OPERATOR_EMAIL: '' });
  base = bff.url;
});
afterAll(() => bff.stop());

describe('POST /api/session with a startKey (a start whose answer was lost, tried again)', () => {
  it('gives a repeat the conversation the first try made, with tokens of its own, and sends the first message once', async () => {
    const startKey = randomUUID();
    const before = await sends();
    const first = await start({ text: 'Where is my order?', startKey });
    const again = await start({ text: 'Where is my order?', startKey });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.sessionId).toBe(first.body.sessionId);
    expect(again.body.refreshToken).not.toBe(first.body.refreshToken);
    expect(await sends()).toBe(before + 1);
    const history = await call(base, 'GET', '/api/messages', { token: again.body.token });
    expect(history.status).toBe(200);
    expect(history.body.items.filter((m: { role: string }) => m.role === 'user')).toHaveLength(1);
  });

  it('makes a repeat that comes while the first try still runs wait for it, and gives it the same conversation', async () => {
    const startKey = randomUUID();
    const before = await sends();
    await fault({ delayMs: 800, count: 1 });
    const first = start({ text: 'slow start', startKey });
    // The simulator takes a fault off its queue as the call arrives: the first try is then under way.
    await until('the first try at the service', async () => (await call(base, 'GET', '/sim/__faults')).body.faults.length === 0);
    const during = await start({ text: 'slow start', startKey });
    const made = await first;
    expect([made.status, during.status]).toEqual([201, 201]);
    expect(during.body.sessionId).toBe(made.body.sessionId);
    expect(await sends()).toBe(before + 1);
  });

  it('gives a repeat no tokens once the first try’s tokens were revoked (a refresh token used twice): 409 start_ended', async () => {
    const body = { text: 'Stolen tokens', startKey: randomUUID() };
    const first = await start(body);
    expect((await call(base, 'POST', '/api/token', { body: { refreshToken: first.body.refreshToken } })).status).toBe(200);
    expect((await call(base, 'POST', '/api/token', { body: { refreshToken: first.body.refreshToken } })).body.error.code).toBe('refresh_token_reused');
    const again = await start(body);
    expect([again.status, again.body.error?.code]).toEqual([409, 'start_ended']);
  });

  it('puts a repeat’s tokens in the first try’s chain: when that chain is revoked, they stop working too', async () => {
    const body = { text: 'Two pairs, one chain', startKey: randomUUID() };
    const first = await start(body);
    const again = await start(body);
    expect(again.status).toBe(201);
    await call(base, 'POST', '/api/token', { body: { refreshToken: first.body.refreshToken } });
    await call(base, 'POST', '/api/token', { body: { refreshToken: first.body.refreshToken } });
    const read = await call(base, 'GET', '/api/messages', { token: again.body.token });
    expect([read.status, read.body.error?.code]).toEqual([401, 'invalid_token']);
  });

  it('starts again after a try that failed', async () => {
    const startKey = randomUUID();
    await fault({ status: 503, count: 3 });
    expect((await start({ text: 'try me', startKey })).status).toBe(503);
    const retried = await start({ text: 'try me', startKey });
    expect(retried.status).toBe(201);
  });

  it('holds a key to the start it was made for: other text starts another conversation; no key, each start is new', async () => {
    const startKey = randomUUID();
    const one = await start({ text: 'first words', startKey });
    const other = await start({ text: 'other words', startKey });
    expect(other.body.sessionId).not.toBe(one.body.sessionId);
    const a = await start({ text: 'no key' });
    const b = await start({ text: 'no key' });
    expect(a.body.sessionId).not.toBe(b.body.sessionId);
  });

  it('refuses a startKey that is not 16 to 64 letters, digits, _ or -', async () => {
    const res = await start({ text: 'hi', startKey: 'short' });
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
    expect(res.body.error.message).toContain('"startKey" must be 16 to 64 letters, digits, _ or -');
  });
});
