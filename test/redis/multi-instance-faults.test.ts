import { once } from 'node:events';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../bff/src/lib/webhook-verify.js';
import { call, WEBHOOK_SECRET } from '../helpers/bff.js';
import type { SpawnedServer } from '../helpers/server.js';
import { conversation, drained, message, nextText, post, sleep, startInstances, stream, texts, until } from './cluster.js';
import { skipRedisTests, startRedisServer, type TestRedis } from './redis-server.js';

// Crashes, shutdowns and a Redis outage with real processes. Instance B serves throughout;
// each test starts the instance it kills or stops. The outage test kills Redis, so it runs last.
describe.skipIf(skipRedisTests)('BFF processes on one Redis: crashes, shutdown, outage', () => {
  let redis: TestRedis;
  let b: SpawnedServer;
  const started: SpawnedServer[] = [];
  const instance = async () => {
    const [server] = await startInstances(redis.url, 1);
    started.push(server!);
    return server!;
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    b = await instance();
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await redis?.stop();
  });

  it('SIGTERM: A stops accepting, ends its streams at once, finishes an in-flight webhook with 200 and exits 0', async () => {
    const a = await instance();
    const c = await conversation();
    const onA = await stream(a.url, c.token);
    expect(await post(a.url, c.id, 'live')).toBe(200);
    await nextText(onA, 'live');

    // A webhook whose body is still arriving when the signal comes.
    const raw = JSON.stringify(message(c.id, 'in-flight'));
    const ts = String(Math.floor(Date.now() / 1000));
    const req = request(`${a.url}/webhooks/agent`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(raw), 'x-service-timestamp': ts, 'x-service-signature': signWebhook(WEBHOOK_SECRET, ts, raw) },
    });
    const answered = once(req, 'response');
    req.write(raw.slice(0, 20));
    // Let A parse the headers: a connection without a request yet counts as idle and is dropped.
    await sleep(200);

    const exited = once(a.process, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    const signalled = Date.now();
    a.kill('SIGTERM');
    await onA.ended;
    expect(Date.now() - signalled).toBeLessThan(2000);
    // No new connections any more, while the in-flight request keeps the process alive.
    await expect(fetch(`${a.url}/healthz`)).rejects.toThrow();
    expect(a.process.exitCode).toBeNull();

    req.end(raw.slice(20));
    const [res] = (await answered) as [import('node:http').IncomingMessage];
    let body = '';
    for await (const chunk of res) body += chunk;
    expect([res.statusCode, JSON.parse(body)]).toEqual([200, { ok: true }]);
    expect(await exited).toEqual([0, null]);

    // It was stored before the answer: B replays it.
    const onB = await stream(b.url, c.token);
    await nextText(onB, 'in-flight');
    expect(texts(onB.events)).toEqual(['live', 'in-flight']);
    onB.close();
  });

  it('kill -9 of A loses nothing for a client that resumes on B with the last id it saw', async () => {
    const a = await instance();
    const c = await conversation();
    const onA = await stream(a.url, c.token);
    const labels = Array.from({ length: 12 }, (_, n) => `k${n + 1}`);
    for (const [n, label] of labels.entries()) {
      expect(await post(b.url, c.id, label)).toBe(200);
      if (label === 'k3') await nextText(onA, 'k3'); // the stream on A was live
      if (label === 'k6') a.kill('SIGKILL'); // without waiting for A to deliver k4..k6
      if (n > 6) await sleep(10);
    }
    await onA.ended;
    const seen = texts(onA.events);
    expect(seen.slice(0, 3)).toEqual(['k1', 'k2', 'k3']);
    expect(seen.length).toBeLessThan(labels.length);

    const onB = await stream(b.url, c.token, onA.events.at(-1)!.id);
    await nextText(onB, 'k12');
    const got = await drained(onB, b.url, c.id);
    expect([...seen, ...texts(got)]).toEqual(labels);
    expect(got.map((e) => Number(e.id))).toEqual(labels.map((_, n) => n + 1).slice(seen.length));
    onB.close();
  });

  it('Redis down: webhooks 503 and /readyz 503 while streams stay open; after a restart the re-sent events reach them', async () => {
    const a = await instance();
    const c = await conversation();
    const [onA, onB] = await Promise.all([stream(a.url, c.token), stream(b.url, c.token)]);
    expect(await post(a.url, c.id, 'before')).toBe(200);
    await Promise.all([nextText(onA, 'before'), nextText(onB, 'before')]);
    let ended = false;
    void Promise.race([onA.ended, onB.ended]).then(() => (ended = true));

    await redis.stop();
    for (const server of [a, b]) {
      expect(await post(server.url, c.id, 'during')).toBe(503);
      const ready = await call(server.url, 'GET', '/readyz');
      expect([ready.status, ready.body.error?.code]).toEqual([503, 'store_unavailable']);
    }
    // The log says so once per connection, and each refused request names its route.
    await until('the loss logged', () => a.output.some((l) => l.includes('"msg":"Redis connection lost')), 5000);
    expect(a.output.filter((l) => l.includes('"msg":"Redis connection lost') && l.includes('"connection":"parley-cmd"'))).toHaveLength(1);
    expect(a.output.find((l) => l.includes('"msg":"request failed"') && l.includes('"path":"/webhooks/agent"'))).toMatch(/"method":"POST".*"code":"store_unavailable"/);
    // Open streams stay open (heartbeats keep coming) so clients need not reconnect.
    const beats = [onA.comments, onB.comments];
    await until('heartbeats during the outage', () => onA.comments > beats[0]! && onB.comments > beats[1]!, 3000);
    expect(ended).toBe(false);

    await redis.restart();
    for (const server of [a, b]) await until('ready again', async () => (await call(server.url, 'GET', '/readyz')).status === 200, 10_000);
    await until('the return logged', () => a.output.some((l) => l.includes('"msg":"Redis connection back"')), 5000);
    // The service retries what got 503, so the same events arrive again, to either instance.
    expect(await post(b.url, c.id, 'during')).toBe(200);
    expect(await post(a.url, c.id, 'after')).toBe(200);

    // The restarted redis-server is empty (no persistence here), so the conversation's ids start
    // over at 1. The fan-out notices the new data set (its epoch key changed) and still hands these
    // events to the streams that stayed open; they arrive there without a reconnect, after a
    // `reset` (what the lost data set held may be gone: the widget reloads history). What is not
    // guaranteed: a client that reconnects with a Last-Event-ID from before the loss skips the
    // first new ids, which is why deployments run Redis with AOF (see compose.yaml).
    for (const sse of [onA, onB]) {
      await nextText(sse, 'after', 5000);
      expect(texts(sse.events)).toEqual(['before', 'during', 'after']);
      expect(sse.events.map((e) => [e.event, e.id && Number(e.id)])).toEqual([
        ['message', 1],
        ['reset', undefined],
        ['message', 1],
        ['message', 2],
      ]);
    }
    expect(ended).toBe(false);
    onA.close();
    onB.close();
  });
});
