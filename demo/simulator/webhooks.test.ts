import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, signWebhook, type Simulator, type SimulatorOptions } from './index.js';
import { startReceiver, type ReceivedWebhook, type Receiver } from './testing.js';

const SECRET = 'whsec_known';
let sim: Simulator;
const receivers: Receiver[] = [];

async function setup(answer?: Parameters<typeof startReceiver>[0], extra: Partial<SimulatorOptions> = {}): Promise<Receiver> {
  const receiver = await startReceiver(answer);
  receivers.push(receiver);
  sim = createSimulator({
    accessToken: 't',
    botKey: 'b',
    webhookSecret: SECRET,
    webhookUrl: receiver.url,
    duplicateRate: 0,
    replyDelayMs: 0,
    retryBaseMs: 5,
    ...extra,
  });
  return receiver;
}

afterEach(async () => {
  await sim?.close();
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

function send(body: Record<string, unknown>): Promise<Response> {
  return Promise.resolve(
    sim.app.request('/v1/bots/b/messages/', {
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: JSON.stringify({ webhookOnly: true, ...body }),
    }),
  );
}

/** The receiver's side of the contract, written independently of the simulator's code. */
function verifies(hook: ReceivedWebhook): boolean {
  const expected = createHmac('sha256', SECRET).update(`${hook.headers['x-service-timestamp']}.${hook.rawBody}`).digest('hex');
  return hook.headers['x-service-signature'] === expected;
}

describe('signature', () => {
  it('matches a known-answer HMAC-SHA256 vector (computed with openssl)', () => {
    expect(signWebhook(SECRET, '1700000000', '{"event":"message.added","eventId":"evt_1"}')).toBe(
      '7ed41ffd9dea6a2715b332a7e9badc4d2c0881f5beac0aa34434ce5901f8c19e',
    );
  });

  it('signs every delivered webhook over "{timestamp}.{raw body}" with a seconds timestamp by default', async () => {
    const receiver = await setup();
    await send({ message: 'hello' });
    const hooks = await receiver.waitFor((r) => r.length >= 3);
    const now = Date.now() / 1000;
    for (const hook of hooks) {
      expect(hook.headers['content-type']).toBe('application/json');
      expect(hook.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
      expect(hook.headers['x-service-timestamp']).toMatch(/^\d{10}$/);
      expect(Math.abs(Number(hook.headers['x-service-timestamp']) - now)).toBeLessThan(5);
      expect(hook.headers['x-service-event-id']).toBe(hook.body.eventId);
      expect(verifies(hook)).toBe(true);
    }
    expect(hooks.map((h) => h.body.event).slice(0, 3)).toEqual(['conversation.created', 'message.added', 'message.added']);
    expect(hooks[0]?.body.sessionId).toBe(1001);
    expect(typeof hooks[0]?.body.createdAt).toBe('number');
  });

  it('uses a milliseconds timestamp when asked to', async () => {
    const receiver = await setup(undefined, { timestampUnit: 'ms' });
    await send({ message: 'hello' });
    const [hook] = await receiver.waitFor((r) => r.length >= 1);
    expect(hook?.headers['x-service-timestamp']).toMatch(/^\d{13}$/);
    expect(verifies(hook!)).toBe(true);
  });

  it('sometimes leaves createdAt out of message.added, never out of other kinds', async () => {
    const receiver = await setup(undefined, { random: () => 0.1 });
    await send({ message: 'hello' });
    const hooks = await receiver.waitFor((r) => r.some((h) => h.body.event === 'message.added'));
    expect(hooks[0]?.body.createdAt).toEqual(expect.any(Number));
    expect(hooks.find((h) => h.body.event === 'message.added')?.body).not.toHaveProperty('createdAt');
  });
});

describe('delivery', () => {
  it('retries a non-200 answer with a fresh timestamp and signature until it gets 200', async () => {
    const receiver = await setup((n) => (n < 2 ? 503 : 200), { timestampUnit: 'ms', retryBaseMs: 10 });
    await send({ message: 'hello' });
    const hooks = await receiver.waitFor((r) => r.some((h) => h.status === 200));
    const first = hooks.slice(0, 3);
    expect(first.map((h) => h.status)).toEqual([503, 503, 200]);
    expect(new Set(first.map((h) => h.body.eventId)).size).toBe(1);
    expect(new Set(first.map((h) => h.rawBody)).size).toBe(1);
    const stamps = first.map((h) => Number(h.headers['x-service-timestamp']));
    expect(stamps[1]!).toBeGreaterThan(stamps[0]!);
    expect(stamps[2]!).toBeGreaterThan(stamps[1]!);
    expect(first.every(verifies)).toBe(true);
    await sim.idle();
    const log = sim.deliveries().filter((d) => d.eventId === first[0]?.body.eventId);
    expect(log.map((d) => [d.attempt, d.status])).toEqual([
      [3, 200],
      [2, 503],
      [1, 503],
    ]);
  });

  it('keeps the events of one conversation in order while an earlier one is being retried', async () => {
    const receiver = await setup((n) => (n === 0 ? 500 : 200));
    await send({ message: 'where is my order?' });
    await sim.idle();
    const delivered = receiver.received.filter((h) => h.status === 200).map((h) => h.body.event);
    expect(delivered).toEqual(['conversation.created', 'message.added', 'message.added']);
  });

  it('retries network errors, gives up after maxAttempts and then moves on', async () => {
    const receiver = await setup(() => 500, { maxAttempts: 3 });
    await send({ message: 'hello' });
    await sim.idle();
    // Every event got exactly three attempts, the last one marked as given up.
    const byEvent = new Map<string, number>();
    for (const h of receiver.received) byEvent.set(h.body.eventId, (byEvent.get(h.body.eventId) ?? 0) + 1);
    expect([...byEvent.values()]).toEqual([3, 3, 3]);
    expect(sim.deliveries().filter((d) => d.gaveUp)).toHaveLength(3);

    const dead = createSimulator({ accessToken: 't', botKey: 'b', webhookSecret: SECRET, webhookUrl: 'http://127.0.0.1:9/hook', duplicateRate: 0, replyDelayMs: 0, retryBaseMs: 1, maxAttempts: 2 });
    await dead.app.request('/v1/bots/b/messages/', { method: 'POST', headers: { authorization: 'Bearer t' }, body: JSON.stringify({ message: 'x', webhookOnly: true }) });
    await dead.idle();
    const errors = dead.deliveries().filter((d) => d.status === 'error');
    expect(errors.length).toBeGreaterThanOrEqual(2);
    expect(errors[0]?.error).toBeTruthy();
    await dead.close();
  });

  it('delivers some events twice with the same eventId and body', async () => {
    const receiver = await setup(undefined, { duplicateRate: 1 });
    await send({ message: 'hello' });
    await sim.idle();
    const ids = receiver.received.map((h) => h.body.eventId);
    expect(ids.length).toBe(6);
    for (const id of new Set(ids)) {
      const copies = receiver.received.filter((h) => h.body.eventId === id);
      expect(copies).toHaveLength(2);
      expect(copies[0]?.rawBody).toBe(copies[1]?.rawBody);
      expect(copies.every(verifies)).toBe(true);
    }
    expect(sim.deliveries().filter((d) => d.duplicate)).toHaveLength(3);
  });

  it('does not duplicate with duplicateRate 0', async () => {
    const receiver = await setup();
    await send({ message: 'hello' });
    await sim.idle();
    expect(new Set(receiver.received.map((h) => h.body.eventId)).size).toBe(receiver.received.length);
  });

  it('sends to the per-request webhookUrl instead of the default', async () => {
    await setup();
    const other = await startReceiver();
    receivers.push(other);
    await send({ message: 'hello', webhookUrl: other.url });
    await sim.idle();
    expect(other.received.length).toBeGreaterThanOrEqual(2);
    expect(receivers[0]?.received).toHaveLength(0);
  });

  it('stops retrying after close()', async () => {
    const receiver = await setup(() => 500, { retryBaseMs: 30 });
    await send({ message: 'hello' });
    await receiver.waitFor((r) => r.length >= 1);
    await sim.close();
    const seen = receiver.received.length;
    // Waiting for nothing to happen: five retry intervals (30 ms) in which no retry may come.
    await new Promise((r) => setTimeout(r, 150));
    expect(receiver.received.length).toBe(seen);
  });

  it('replays a delivered event on request with the same eventId and a valid new signature', async () => {
    const receiver = await setup();
    await send({ message: 'hello' });
    await sim.idle();
    const last = receiver.received[receiver.received.length - 1]!;
    const record = await sim.redeliver();
    expect(record).toMatchObject({ eventId: last.body.eventId, duplicate: true, status: 200 });
    const replay = receiver.received[receiver.received.length - 1]!;
    expect(replay.rawBody).toBe(last.rawBody);
    expect(verifies(replay)).toBe(true);
  });
});
