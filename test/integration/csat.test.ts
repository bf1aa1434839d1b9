import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { openSse } from '../helpers/sse.js';
import { until } from '../helpers/wait.js';

// docs/api.md "People": POST /api/csat against the service simulator, with a feedback receiver.
const HOOK_SECRET = 'csat-hook-secret-0123456789';
const deliveries: Array<{ headers: Record<string, string | string[] | undefined>; body: string }> = [];
let receiver: Server;
let bff: RunningServer;
let strict: RunningServer;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body });
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/csat`;
  bff = await startBff({ ESCALATION_OPERATOR_EMAIL: 'ops@nimbus.example', FEEDBACK_WEBHOOK_URL: url, FEEDBACK_WEBHOOK_SECRET: HOOK_SECRET });
  strict = await startBff({ CSAT: 'after_operator' });
});
afterAll(async () => {
  await Promise.all([bff.stop(), strict.stop()]);
  receiver.close();
});

async function archivedConversation(server: RunningServer) {
  const session = (await call(server.url, 'POST', '/api/session', { body: { text: 'Thanks, that is all' } })).body;
  const sse = await openSse(`${server.url}/api/events?token=${session.token}`);
  return { session, sse, archive: async () => {
    expect((await call(server.url, 'POST', '/api/archive', { token: session.token })).status).toBeLessThan(300);
    await sse.next((e) => e.event === 'archived');
  } };
}

describe('POST /api/csat', () => {
  it('takes one rating per archived conversation: stored upstream, streamed, counted and forwarded signed', async () => {
    const { session, sse, archive } = await archivedConversation(bff);
    const rate = (body: unknown) => call(bff.url, 'POST', '/api/csat', { token: session.token, body });
    expect((await rate({ score: 5 })).body.error.code).toBe('not_rateable'); // still open
    await archive();
    for (const bad of [{ score: 0 }, { score: 6 }, { score: 3.5 }, { score: '4' }, {}]) {
      const res = await rate(bad);
      expect([res.status, res.body.error.code]).toEqual([400, 'csat_invalid']);
    }
    expect((await rate({ score: 4, comment: '  Quick and kind ' })).status).toBe(202);
    const again = await rate({ score: 1 });
    expect([again.status, again.body.error.code]).toEqual([409, 'already_rated']);

    expect(JSON.parse((await sse.next((e) => e.event === 'csat')).data)).toEqual({ score: 4, comment: 'Quick and kind' });
    // The simulator echoes the stored variables; the stream may carry these (the CSAT values the visitor gave).
    const variable = await sse.next((e) => e.event === 'variables' && JSON.parse(e.data).name === 'csat');
    expect(JSON.parse(variable.data)).toEqual({ name: 'csat', value: 4 });
    sse.close();

    await until('the rating is forwarded', () => deliveries.some((d) => d.body.includes(session.sessionId)));
    const delivery = deliveries.find((d) => d.body.includes(session.sessionId))!;
    expect(JSON.parse(delivery.body)).toMatchObject({ type: 'csat', sessionId: session.sessionId, score: 4, comment: 'Quick and kind' });
    const ts = delivery.headers['x-parley-timestamp'];
    expect(delivery.headers['x-parley-signature']).toBe(`${createHmac('sha256', HOOK_SECRET).update(`${ts}.${delivery.body}`).digest('hex')}`);
    expect((await call(bff.url, 'GET', '/metrics')).body).toMatch(/parley_csat_total\{score="4"\} 1/);
  });

  it('lets one of two ratings sent at once win everywhere: the service, the stream, the metric and the forward agree', async () => {
    const { session, sse, archive } = await archivedConversation(bff);
    await archive();
    const rate = (score: number) => call(bff.url, 'POST', '/api/csat', { token: session.token, body: { score } });
    const metric = async (score: number) => Number(new RegExp(`parley_csat_total\\{score="${score}"\\} (\\d+)`).exec((await call(bff.url, 'GET', '/metrics')).body)?.[1] ?? 0);
    const before = { 1: await metric(1), 5: await metric(5) };
    // The first rating's write to the service is slow, so the second comes while it is under way.
    await call(bff.url, 'POST', '/sim/__faults', { body: { delayMs: 700, count: 1 } });
    const first = rate(1);
    // The fault is taken once the first rating's write has reached the service: it is under way.
    await until('the slow write under way', async () => (await call(bff.url, 'GET', '/sim/__faults')).body.faults.length === 0);
    const second = await rate(5);
    const answers = [(await first).status, second.status];
    expect(answers).toEqual([202, 409]);
    expect(second.body.error.code).toBe('already_rated');

    expect((await call(bff.url, 'GET', `/sim/operator/conversations/${session.sessionId}`)).body.variables.csat).toBe(1);
    expect(JSON.parse((await sse.next((e) => e.event === 'csat')).data)).toEqual({ score: 1 });
    sse.close();
    expect([await metric(1), await metric(5)]).toEqual([before[1] + 1, before[5]]);
    await until('the rating is forwarded', () => deliveries.some((d) => d.body.includes(session.sessionId)));
    const forwarded = deliveries.filter((d) => d.body.includes(session.sessionId)).map((d) => JSON.parse(d.body).score);
    expect(forwarded).toEqual([1]);
  });

  it('leaves a rating whose write to the service failed open for a retry', async () => {
    const { session, sse, archive } = await archivedConversation(bff);
    await archive();
    sse.close();
    await call(bff.url, 'POST', '/sim/__faults', { body: { status: 400, count: 1 } });
    expect((await call(bff.url, 'POST', '/api/csat', { token: session.token, body: { score: 2 } })).status).toBeGreaterThanOrEqual(400);
    expect((await call(bff.url, 'POST', '/api/csat', { token: session.token, body: { score: 3 } })).status).toBe(202);
    expect((await call(bff.url, 'GET', `/sim/operator/conversations/${session.sessionId}`)).body.variables.csat).toBe(3);
  });

  it('with CSAT=after_operator asks only where an operator wrote', async () => {
    const { session, sse, archive } = await archivedConversation(strict);
    await archive();
    const res = await call(strict.url, 'POST', '/api/csat', { token: session.token, body: { score: 5 } });
    expect([res.status, res.body.error.code]).toEqual([409, 'not_rateable']);
    sse.close();
  });
});
