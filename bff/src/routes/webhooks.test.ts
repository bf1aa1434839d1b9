import { describe, expect, it } from 'vitest';
import { storeThatFails, webhookDeps } from '../../../test/helpers/webhook-deps.js';
import { createApp } from '../app.js';
import { MemoryEventStore } from '../adapters/memory-store.js';
import { createLogger, silentLogger } from '../logger.js';
import { signWebhook } from '../lib/webhook-verify.js';
import type { EventStore } from '../ports/event-store.js';
import type { WebhookObservation } from '../ports/observer.js';

const SECRET = 'unit-webhook-secret';

function appWith(store: EventStore, observations: WebhookObservation[] = [], logger = silentLogger) {
  return createApp(webhookDeps({ secret: SECRET, store, observations, logger }));
}

function signed(body: unknown) {
  const raw = JSON.stringify(body);
  const ts = String(Date.now()); // milliseconds this time
  return { method: 'POST', body: raw, headers: { 'content-type': 'application/json', 'x-service-timestamp': ts, 'x-service-signature': signWebhook(SECRET, ts, raw) } };
}

const event = { event: 'message.added', eventId: 'e-1', sessionId: 7, data: { messageId: 1, message: 'hi', hbo: 'bot' } };

describe('webhook route with a failing store', () => {
  it('answers 503 when the store cannot take the event, so the service retries; then 200 once it can', async () => {
    const memory = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
    const { store: flaky, down } = storeThatFails(memory);
    down.now = true;
    const observations: WebhookObservation[] = [];
    const app = appWith(flaky, observations);
    const failed = await app.request('/webhooks/agent', signed(event));
    expect(failed.status).toBe(503);
    expect(await failed.json()).toEqual({ error: { code: 'store_unavailable', message: expect.any(String) } });
    expect((await app.request('/readyz')).status).toBe(503);

    down.now = false;
    const retried = await app.request('/webhooks/agent', signed(event));
    expect(retried.status).toBe(200);
    expect(await memory.read('7', 0, 10)).toHaveLength(1);
    expect(observations.map((o) => o.outcome)).toEqual(['store_unavailable', 'stored']);
  });

  it('reports each outcome to the observer, with the event id for duplicates', async () => {
    const observations: WebhookObservation[] = [];
    const app = appWith(new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 }), observations);
    await app.request('/webhooks/agent', signed(event));
    await app.request('/webhooks/agent', signed(event));
    await app.request('/webhooks/agent', { ...signed(event), headers: { 'x-service-signature': 'f'.repeat(64), 'x-service-timestamp': String(Date.now()) } });
    expect(observations.map((o) => [o.outcome, o.eventId])).toEqual([
      ['stored', 'e-1'],
      ['duplicate', 'e-1'],
      ['invalid_signature', undefined],
    ]);
  });

  it('tells the observer an unsigned request from a wrong signature; the sender hears the same 401 for both', async () => {
    const observations: WebhookObservation[] = [];
    const app = appWith(new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 }), observations);
    const unsigned = await app.request('/webhooks/agent', { method: 'POST', body: JSON.stringify(event), headers: { 'content-type': 'application/json' } });
    const forged = await app.request('/webhooks/agent', { ...signed(event), headers: { 'content-type': 'application/json', 'x-service-signature': 'f'.repeat(64), 'x-service-timestamp': String(Date.now()) } });
    expect([unsigned.status, forged.status]).toEqual([401, 401]);
    expect(await unsigned.json()).toEqual(await forged.json());
    expect(observations.map((o) => [o.outcome, o.reason])).toEqual([
      ['invalid_signature', 'missing_signature'],
      ['invalid_signature', 'bad_signature'],
    ]);
  });

  it('without a body eventId, dedups on the signed timestamp and body; the unsigned header id never decides', async () => {
    const store = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
    const app = appWith(store);
    const { eventId: _, ...noId } = event;
    const captured = signed(noId);
    expect(await (await app.request('/webhooks/agent', captured)).json()).toEqual({ ok: true });
    // A replay of the captured delivery inside the signature window, with a fresh header id each time.
    for (const id of ['fresh-1', 'fresh-2']) {
      const replay = { ...captured, headers: { ...captured.headers, 'x-service-event-id': id } };
      expect(await (await app.request('/webhooks/agent', replay)).json()).toEqual({ ok: true, duplicate: true });
    }
    expect(await store.read('7', 0, 10)).toHaveLength(1);
  });

  it('never stores (or streams) a user variable the browser may not know', async () => {
    const store = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
    const app = appWith(store); // USER_VARIABLES is empty here
    const res = await app.request('/webhooks/agent', signed({ event: 'user.variables.updated', eventId: 'v-1', sessionId: 7, data: { riskScore: 9 } }));
    expect([res.status, await res.json()]).toEqual([200, { ok: true, ignored: true }]);
    expect(await store.read('7', 0, 10)).toEqual([]);
  });

  it('acknowledges signed events it cannot show (200, nothing stored) so the service does not resend them forever', async () => {
    const observations: WebhookObservation[] = [];
    const store = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
    const app = appWith(store, observations);
    const cases = [
      { event: 'message.added', eventId: 'x-1', sessionId: 7, data: { messageId: 2, message: '', hbo: 'bot' } },
      { event: 'message.added', eventId: 'x-2', data: { messageId: 3, message: 'no session', hbo: 'bot' } },
      { event: 'message.added', eventId: 'x-3', sessionId: 7, data: { messageId: 4, message: 'my own words', hbo: 'user' } },
    ];
    for (const body of cases) {
      const res = await app.request('/webhooks/agent', signed(body));
      expect([res.status, await res.json()]).toEqual([200, { ok: true, ignored: true }]);
    }
    expect(await store.read('7', 0, 10)).toEqual([]);
    expect(observations.map((o) => o.outcome)).toEqual(['ignored', 'ignored', 'ignored']);
  });

  it('takes a rich element sent as a JSON object, not only as JSON text', async () => {
    const store = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
    const app = appWith(store);
    const badge = { type: 'buttons', text: 'Pick one', buttons: [{ title: 'Yes', payload: 'yes' }] };
    const res = await app.request('/webhooks/agent', signed({ event: 'message.added', eventId: 'o-1', sessionId: 7, data: { messageId: 5, message: badge, hbo: 'bot' } }));
    expect(res.status).toBe(200);
    const [stored] = await store.read('7', 0, 10);
    expect(stored!.data).toMatchObject({ id: '5', role: 'bot', badge: { type: 'buttons' } });
    expect((stored!.data as { text?: string }).text ?? '').not.toContain('{'); // never the raw JSON
  });

  it('acknowledges signed events nested too deep (200 and one info line, nothing stored), never a 5xx retried for ever', async () => {
    const store = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
    const lines: Array<Record<string, unknown>> = [];
    const app = appWith(store, [], createLogger('info', (line) => lines.push(JSON.parse(line))));
    const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
    const raw = (id: string, message: string, variables = '{}') =>
      `{"event":"message.added","eventId":"${id}","sessionId":7,"data":{"messageId":9,"message":${message},"hbo":"bot","variables":${variables}}}`;
    for (const body of [raw('deep-1', deep(200_000)), raw('deep-2', '"hi"', `{"a":${deep(5000)}}`)]) {
      const res = await app.request('/webhooks/agent', signedRaw(body));
      expect([res.status, await res.json()]).toEqual([200, { ok: true, ignored: true }]);
    }
    expect(lines.map((l) => [l.level, l.msg, l.reason])).toEqual([
      ['info', 'webhook left out', 'nested too deep'],
      ['info', 'webhook left out', 'nested too deep'],
    ]);
    expect(await store.read('7', 0, 10)).toEqual([]);
    expect((await app.request('/webhooks/agent', signed(event))).status).toBe(200);
  });
});

function signedRaw(raw: string) {
  const ts = String(Date.now());
  return { method: 'POST', body: raw, headers: { 'content-type': 'application/json', 'x-service-timestamp': ts, 'x-service-signature': signWebhook(SECRET, ts, raw) } };
}
