import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UpstreamError } from '../errors.js';
import { fetchWithRetry, type UpstreamRequest } from './http-retry.js';

// A real server on loopback: `/reset` reads the request and then drops the connection without an
// answer (the request reached the service), `/slow` never answers, `/ok` answers 200.
let server: Server;
let base: string;
let closedPort: number;
const seen: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.url!);
    req.resume();
    req.on('end', () => {
      if (req.url === '/reset') req.socket.destroy();
      else if (req.url === '/ok') res.end('{}');
      else if (/^\/status\/\d+$/.test(req.url!)) res.writeHead(Number(req.url!.slice(8))).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  closedPort = (closed.address() as AddressInfo).port;
  await new Promise((r) => closed.close(r));
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

// `/slow` times out after 300 ms; every other request has seconds, so that a loaded machine (a
// process's first fetch loads undici) never turns a refusal or an answer into a timeout.
const policy = { retries: 2, timeoutMs: 5_000, baseDelayMs: 1, maxDelayMs: 5 };

async function attempt(url: string, idempotent: boolean): Promise<{ error?: UpstreamError; calls: number; hits: number }> {
  seen.length = 0;
  let calls = 0;
  const req: UpstreamRequest = { target: 'agent', operation: 'send', url, init: { method: 'POST', body: '{"message":"hi"}' }, idempotent };
  try {
    await fetchWithRetry(req, url.endsWith('/slow') ? { ...policy, timeoutMs: 300 } : policy, { observer: { upstreamCall: () => void calls++ } });
    return { calls, hits: seen.length };
  } catch (error) {
    return { error: error as UpstreamError, calls, hits: seen.length };
  }
}

describe('fetchWithRetry: what may be repeated', () => {
  it('repeats a send whose connection was refused (it never left)', async () => {
    // A port just closed: the connection is refused before any byte is written.
    const r = await attempt(`http://127.0.0.1:${closedPort}/send`, false);
    expect(r.calls).toBe(3);
    expect(r.error?.code).toBe('upstream_unavailable');
  });

  it('does not repeat a send whose connection broke after it went out, and says it may have been sent', async () => {
    const r = await attempt(`${base}/reset`, false);
    expect([r.calls, r.hits]).toEqual([1, 1]);
    expect(r.error?.code).toBe('send_uncertain');
  });

  it('does not repeat a send that timed out', async () => {
    const r = await attempt(`${base}/slow`, false);
    expect([r.calls, r.hits]).toEqual([1, 1]);
    expect(r.error?.code).toBe('send_uncertain');
  });

  it('repeats an idempotent call after a reset or a timeout', async () => {
    const reset = await attempt(`${base}/reset`, true);
    expect([reset.calls, reset.hits, reset.error?.code]).toEqual([3, 3, 'upstream_unavailable']);
    const slow = await attempt(`${base}/slow`, true);
    expect([slow.calls, slow.error?.code]).toEqual([3, 'upstream_timeout']);
  });

  it.each([408, 500, 502, 504])('does not repeat a send the service answered %i (it may have acted on it)', async (status) => {
    const r = await attempt(`${base}/status/${status}`, false);
    expect([r.calls, r.hits]).toEqual([1, 1]);
    expect(r.error?.code).toBe('send_uncertain');
    expect(r.error?.upstreamStatus).toBe(status);
  });

  it.each([429, 503])('repeats a send the service refused with %i (it did no work)', async (status) => {
    const r = await attempt(`${base}/status/${status}`, false);
    expect([r.calls, r.hits]).toEqual([3, 3]);
    expect(r.error?.code).toBe('upstream_unavailable');
  });

  it.each([408, 500, 502, 504])('repeats an idempotent call answered %i', async (status) => {
    const r = await attempt(`${base}/status/${status}`, true);
    expect([r.calls, r.hits]).toEqual([3, 3]);
  });

  it('answers at once when the service answers', async () => {
    const r = await attempt(`${base}/ok`, false);
    expect([r.calls, r.hits, r.error]).toEqual([1, 1, undefined]);
  });
});
