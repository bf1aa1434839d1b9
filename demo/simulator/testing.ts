import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { WebhookEnvelope } from './types.js';

/** One webhook as a test receiver saw it: raw body first, parsed second (like a real receiver). */
export interface ReceivedWebhook {
  headers: Record<string, string>;
  rawBody: string;
  body: WebhookEnvelope;
  /** HTTP status the receiver answered. */
  status: number;
}

export interface Receiver {
  /** `http://127.0.0.1:PORT/hook` */
  url: string;
  received: ReceivedWebhook[];
  /** Waits until `predicate` holds for the received list (polling), or rejects after `timeoutMs`. */
  waitFor(predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/**
 * A tiny webhook receiver on 127.0.0.1 and a random port, for tests. `answer` picks the status
 * of the n-th request (0-based), so tests can make deliveries fail and watch the retries.
 */
export async function startReceiver(answer: (n: number, hook: Omit<ReceivedWebhook, 'status'>) => number = () => 200): Promise<Receiver> {
  const received: ReceivedWebhook[] = [];
  const app = new Hono();
  app.post('/hook', async (c) => {
    const rawBody = await c.req.text();
    const hook = { headers: Object.fromEntries(c.req.raw.headers), rawBody, body: JSON.parse(rawBody) as WebhookEnvelope };
    const status = answer(received.length, hook);
    received.push({ ...hook, status });
    return c.text(status === 200 ? 'ok' : 'no', status as 200);
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    async waitFor(predicate, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`Receiver: condition not met in ${timeoutMs} ms (got ${received.length} webhooks)`);
        await new Promise((r) => setTimeout(r, 5));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets from fetch would otherwise hold `close` open.
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
