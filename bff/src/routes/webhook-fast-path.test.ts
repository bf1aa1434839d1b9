import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeThatFails, webhookDeps } from '../../../test/helpers/webhook-deps.js';
import { createApp } from '../app.js';
import { MemoryEventStore } from '../adapters/memory-store.js';
import { createLogger } from '../logger.js';
import { signWebhook } from '../lib/webhook-verify.js';
import type { WebhookObservation } from '../ports/observer.js';
import { REPRODUCED_MIDDLEWARE, withWebhookFastPath } from './webhook-fast-path.js';

const SECRET = 'fast-path-webhook-secret';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One BFF's worth of webhook dependencies, with what it stored, observed and logged. */
function bff() {
  const { store, down } = storeThatFails(new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 }));
  const observations: WebhookObservation[] = [];
  const logs: Array<Record<string, unknown>> = [];
  const deps = webhookDeps({ secret: SECRET, store, observations, logLevel: 'debug', logger: createLogger('debug', (line) => void logs.push(JSON.parse(line))) });
  return { deps, app: createApp(deps), store, down, observations, logs };
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** Serves `app` behind the fast path on a loopback port; counts the requests handed on to Hono. */
async function serveWithFastPath(twin: ReturnType<typeof bff>) {
  const handedOn = { count: 0 };
  const hono = getRequestListener(twin.app.fetch);
  const server = createServer(
    withWebhookFastPath(twin.deps, (req, res) => {
      handedOn.count++;
      void hono(req, res);
    }),
  );
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, handedOn };
}

interface Sent {
  method?: string;
  path?: string;
  body?: string;
  headers?: Record<string, string>;
}

function signed(body: unknown, options: { timestamp?: string; headers?: Record<string, string> } = {}): Sent {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  const ts = options.timestamp ?? String(Math.floor(Date.now() / 1000));
  return { body: raw, headers: { 'content-type': 'application/json', 'x-service-timestamp': ts, 'x-service-signature': signWebhook(SECRET, ts, raw), ...options.headers } };
}

/** What a client can tell about an answer (a fresh request id stands as "uuid"). */
async function seen(res: Response) {
  const id = res.headers.get('x-request-id');
  return {
    status: res.status,
    body: await res.text(),
    contentType: res.headers.get('content-type'),
    requestId: id !== null && UUID.test(id) ? 'uuid' : id,
    retryAfter: res.headers.get('retry-after'),
  };
}

const message = (eventId: string, text = 'hello') => ({ event: 'message.added', eventId, sessionId: 7, data: { messageId: eventId, message: text, hbo: 'bot' } });

/** The same requests, in order, to the Hono route and to the fast path; one case may turn the store off. */
const CASES: Array<[name: string, sent: () => Sent, storeDown?: boolean]> = [
  ['a new event', () => signed(message('e-1'))],
  ['the same event again', () => signed(message('e-1'))],
  ['an event with a query string on the path', () => ({ ...signed(message('e-2')), path: '/webhooks/agent?attempt=2' })],
  ['a kept request id', () => signed(message('e-3'), { headers: { 'x-request-id': 'trace-42' } })],
  ['a malformed request id', () => signed(message('e-4'), { headers: { 'x-request-id': 'bad id!' } })],
  ['an unsigned header event id (never decides dedup)', () => signed({ event: 'message.added', sessionId: 7, data: { messageId: 9, message: 'by header', hbo: 'bot' } }, { headers: { 'x-service-event-id': 'hdr-1' } })],
  ['a forged signature', () => ({ ...signed(message('e-5')), headers: { 'x-service-timestamp': String(Math.floor(Date.now() / 1000)), 'x-service-signature': 'f'.repeat(64) } })],
  ['a stale timestamp', () => signed(message('e-6'), { timestamp: String(Math.floor(Date.now() / 1000) - 3600) })],
  ['no signature headers', () => ({ body: JSON.stringify(message('e-7')) })],
  ['signed bytes that are not JSON', () => signed('{"event":')],
  ['signed JSON that is not an envelope', () => signed([1, 2, 3])],
  ['a kind the chat does not show', () => signed({ event: 'conversation.created', eventId: 'c-1', sessionId: 7 })],
  ['a message without text', () => signed({ event: 'message.added', eventId: 'e-8', sessionId: 7, data: { messageId: 8, message: '' } })],
  ['signed JSON nested too deep', () => signed(`{"event":"message.added","eventId":"deep","sessionId":7,"data":${'['.repeat(40)}${']'.repeat(40)}}`)],
  ['a body over 1 MB', () => signed({ event: 'message.added', eventId: 'big', sessionId: 7, data: { message: 'x'.repeat(1024 * 1024) } })],
  ['an event while the store is down', () => signed(message('e-9')), true],
  ['the same event once the store is back', () => signed(message('e-9'))],
  ['a GET on the route', () => ({ method: 'GET' })],
  ['a POST to the path with a trailing slash', () => ({ ...signed(message('e-10')), path: '/webhooks/agent/' })],
  ['a POST to a longer path', () => ({ ...signed(message('e-11')), path: '/webhooks/agents' })],
];

describe('webhook fast path (Node, before Hono)', () => {
  it('answers every webhook exactly as the Hono route does: status, body, headers, what is stored, observed and logged', async () => {
    const viaHono = bff();
    const viaNode = bff();
    const { base } = await serveWithFastPath(viaNode);

    for (const [name, sent, storeDown = false] of CASES) {
      viaHono.down.now = viaNode.down.now = storeDown;
      const request = sent();
      const init = { method: request.method ?? 'POST', body: request.body, headers: request.headers };
      const path = request.path ?? '/webhooks/agent';
      const expected = await seen(await viaHono.app.request(path, init));
      expect({ name, ...(await seen(await fetch(base + path, init))) }).toEqual({ name, ...expected });
    }

    expect(await viaNode.store.read('7', 0, 100)).toEqual(
      (await viaHono.store.read('7', 0, 100)).map((e) => ({ ...e, ts: expect.any(Number) })),
    );
    const outcome = ({ durationMs, ...rest }: WebhookObservation) => (expect(durationMs).toBeGreaterThanOrEqual(0), rest);
    expect(viaNode.observations.map(outcome)).toEqual(viaHono.observations.map(outcome));
    expect(viaHono.observations.map((o) => o.outcome)).toEqual([
      'stored', 'duplicate', 'stored', 'stored', 'stored', 'stored', 'invalid_signature', 'stale_timestamp', 'invalid_signature',
      'bad_request', 'bad_request', 'ignored', 'ignored', 'ignored', 'too_large', 'store_unavailable', 'stored',
    ]);
    const line = ({ time, requestId, ms, ...rest }: Record<string, unknown>) => rest;
    expect(viaNode.logs.map(line)).toEqual(viaHono.logs.map(line));
    // One line per webhook, refused ones too (Hono's 404s have none, on either path).
    expect(viaNode.logs.filter((l) => l.msg === 'request').map((l) => l.status)).toEqual([200, 200, 200, 200, 200, 200, 401, 401, 401, 400, 400, 200, 200, 200, 413, 503, 200]);
  });

  it('hands every other request to Hono untouched, and takes none of the webhooks there', async () => {
    const twin = bff();
    const { base, handedOn } = await serveWithFastPath(twin);
    expect((await fetch(`${base}/webhooks/agent`, { method: 'POST', ...signed(message('h-1')) })).status).toBe(200);
    expect((await fetch(`${base}/webhooks/agent?x=1`, { method: 'POST', ...signed(message('h-2')) })).status).toBe(200);
    expect(handedOn.count).toBe(0);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/webhooks/agent`)).status).toBe(404);
    expect(handedOn.count).toBe(2);
  });

  it('answers webhooks that come whole with their headers, two in one write in order, and one cut off part-way', async () => {
    const twin = bff();
    const { base } = await serveWithFastPath(twin);
    const request = (eventId: string, text = `text of ${eventId}`) => {
      const { body, headers } = signed(message(eventId, text));
      const head = Object.entries(headers!).map(([k, v]) => `${k}: ${v}\r\n`).join('');
      return `POST /webhooks/agent HTTP/1.1\r\nHost: x\r\n${head}Content-Length: ${Buffer.byteLength(body!)}\r\n\r\n${body}`;
    };
    const socket = connect(Number(new URL(base).port), '127.0.0.1');
    let text = '';
    socket.on('data', (c: Buffer) => void (text += c.toString()));
    /** The statuses of the answers so far, once there are `n` whole ones. */
    const answers = (n: number) =>
      vi.waitFor(() => {
        const statuses = text.split('HTTP/1.1 ').slice(1).map((answer) => answer.slice(0, 3));
        if (statuses.length !== n || !text.endsWith('}')) throw new Error(`${statuses.length} answers so far`);
        return statuses;
      });
    socket.write(request('whole-1')); // headers and body in one write: taken whole, no stream events
    expect(await answers(1)).toEqual(['200']);
    socket.write(request('whole-2') + request('whole-3')); // pipelined: answered in order
    expect(await answers(3)).toEqual(['200', '200', '200']);
    expect((await twin.store.read('7', 0, 10)).map((e) => (e.data as { text: string }).text)).toEqual(['text of whole-1', 'text of whole-2', 'text of whole-3']);
    // Past the request's 16 KiB buffer, Node stops reading the connection until the body is taken:
    // a large body taken whole leaves the connection reading, so the next webhook on it is answered.
    socket.write(request('large-1', 'x'.repeat(40_000)) + request('after-large'));
    expect(await answers(5)).toEqual(['200', '200', '200', '200', '200']);

    // A body cut off part-way is an abort: nothing stored, one info line, and the server goes on.
    const cut = connect(Number(new URL(base).port), '127.0.0.1');
    cut.on('error', () => {});
    await new Promise((resolve) => cut.once('connect', resolve));
    const whole = request('cut-1');
    cut.write(whole.slice(0, whole.length - 10));
    await new Promise((r) => setTimeout(r, 20));
    cut.destroy();
    await vi.waitFor(() => expect(twin.logs.some((l) => l.msg === 'request body aborted')).toBe(true));
    expect((await twin.store.read('7', 0, 10)).length).toBe(5);
    socket.write(request('whole-4'));
    expect(await answers(6)).toEqual(['200', '200', '200', '200', '200', '200']);
    socket.destroy();
  });

  it('takes a body that arrives in several pieces, and one whose declared length is over the cap at once', async () => {
    const twin = bff();
    const { base } = await serveWithFastPath(twin);
    const { port } = new URL(base);
    const { body, headers } = signed(message('pieces-1'));
    const socket = connect(Number(port), '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (c: Buffer) => {
        text += c.toString();
        if (text.includes('{"ok":true}')) resolve(text);
      });
    });
    const head = Object.entries(headers!).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    socket.write(`POST /webhooks/agent HTTP/1.1\r\nHost: x\r\n${head}Content-Length: ${Buffer.byteLength(body!)}\r\n\r\n`);
    for (const piece of [body!.slice(0, 10), body!.slice(10, 40), body!.slice(40)]) {
      await new Promise((r) => setTimeout(r, 20));
      socket.write(piece);
    }
    expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
    expect((await twin.store.read('7', 0, 10)).map((e) => e.id)).toHaveLength(1);

    const tooLarge = await fetch(`${base}/webhooks/agent`, { method: 'POST', ...signed('x'.repeat(1024 * 1024 + 1)) });
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });
});

describe('the app\'s middleware on the webhook route', () => {
  /** Whether a path Hono registered (`*`, `:name`) matches `path`. */
  const matches = (pattern: string, path: string) =>
    new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\/\*$/, '(?:/.*)?').replace(/\*/g, '.*').replace(/:[^/]+/g, '[^/]+')}$`).test(path);

  it('is all reproduced by the fast path, which answers the route before the app: middleware added to the app must be added there too', () => {
    const { app } = bff();
    const onRoute = app.routes.filter((r) => (r.method === 'ALL' || r.method === 'POST') && matches(r.path, '/webhooks/agent'));
    // The last one is the route's own handler (routes/webhooks.ts); everything before it runs first.
    const middleware = onRoute.slice(0, -1).map((r) => r.handler.name || '(unnamed: name it)');
    expect(onRoute.at(-1)?.path).toBe('/webhooks/agent');
    expect(middleware).toEqual(REPRODUCED_MIDDLEWARE);
  });

  it('counts middleware the app would run on the route, so a new one fails the check above', () => {
    const { app } = bff();
    app.use('/webhooks/*', async function audit(_c, next) {
      await next();
    });
    const onRoute = app.routes.filter((r) => (r.method === 'ALL' || r.method === 'POST') && matches(r.path, '/webhooks/agent'));
    expect(onRoute.map((r) => r.handler.name)).toContain('audit');
    expect(onRoute.slice(0, -1).map((r) => r.handler.name)).not.toEqual(REPRODUCED_MIDDLEWARE);
  });
});
