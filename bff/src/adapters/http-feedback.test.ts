import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../../test/helpers/wait.js';
import { Metrics } from '../lib/metrics.js';
import { signWebhook } from '../lib/webhook-verify.js';
import { FeedbackWebhook } from './http-feedback.js';

const SECRET = 'feedback-secret-0123456789';
const vote = (n: number) => ({ sessionId: '7', messageId: `m${n}`, value: 'up' as const, createdAt: new Date(0).toISOString() });

let server: Server | undefined;
const sockets = new Set<Socket>();

/** A receiver on loopback that answers each request with `handle`; counts the sockets it holds open. */
async function receiver(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<string> {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => handle(req, res, body));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

describe('FeedbackWebhook', () => {
  it('POSTs each vote signed like the service signs its webhooks', async () => {
    const got: Array<{ body: string; signature: string; timestamp: string }> = [];
    const url = await receiver((req, res, body) => {
      got.push({ body, signature: String(req.headers['x-parley-signature']), timestamp: String(req.headers['x-parley-timestamp']) });
      res.end();
    });
    const metrics = new Metrics();
    const sink = new FeedbackWebhook({ url, secret: SECRET, observer: metrics });
    sink.deliver(vote(1));
    await until('the vote at the receiver', () => got.length === 1);
    expect(JSON.parse(got[0]!.body)).toEqual(vote(1));
    expect(got[0]!.signature).toBe(signWebhook(SECRET, got[0]!.timestamp, got[0]!.body));
    await sink.close();
    expect(await metrics.render()).toContain('parley_feedback_forwards_total{outcome="delivered"} 1');
  });

  it('never follows a redirect: a 3xx is a failed delivery', async () => {
    const paths: string[] = [];
    const url = await receiver((req, res) => {
      paths.push(req.url!);
      if (req.url === '/hook') res.writeHead(307, { location: '/elsewhere' }).end();
      else res.end();
    });
    const metrics = new Metrics();
    const sink = new FeedbackWebhook({ url, secret: SECRET, observer: metrics, baseDelayMs: 1 });
    sink.deliver(vote(1));
    await sink.close();
    expect(paths).toEqual(['/hook']);
    expect(await metrics.render()).toContain('parley_feedback_forwards_total{outcome="failed"} 1');
  });

  it('against a receiver that never answers, holds at most `concurrency` sockets and drops past its queue', async () => {
    const url = await receiver(() => {}); // reads the request, never answers
    const metrics = new Metrics();
    const sink = new FeedbackWebhook({ url, secret: SECRET, observer: metrics, concurrency: 4, queueSize: 6, timeoutMs: 60_000 });
    for (let i = 0; i < 200; i++) sink.deliver(vote(i));
    await until('four sockets', () => sockets.size === 4);
    // Waiting for nothing to happen, which no state shows: room for a fifth socket to show up, if one would.
    await new Promise((r) => setTimeout(r, 200));
    expect(sockets.size).toBe(4);
    expect(await metrics.render()).toContain('parley_feedback_forwards_total{outcome="dropped"} 190');
    await sink.close(50);
  });

  it('gives a waiting delivery the slot of one that finished', async () => {
    let answered = 0;
    const url = await receiver((_req, res) => {
      answered++;
      setTimeout(() => res.end(), 20);
    });
    const sink = new FeedbackWebhook({ url, secret: SECRET, concurrency: 2, queueSize: 10 });
    for (let i = 0; i < 12; i++) sink.deliver(vote(i));
    await sink.close();
    expect(answered).toBe(12);
  });
});
