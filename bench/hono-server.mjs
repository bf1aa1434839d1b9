// The framework baseline: the bare twin's webhook work (raw body, the BFF's compiled verifier and
// key set, JSON parse, dedup, 200) as one Hono route on @hono/node-server. Beside the bare twin
// and the BFF it tells what the framework costs and what Parley's own layers cost.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { ExpiringKeys } from '../dist/server/bff/src/lib/expiring-keys.js';
import { WebhookVerifier } from '../dist/server/bff/src/lib/webhook-verify.js';

const verifier = new WebhookVerifier({ secrets: [process.env.WEBHOOK_SECRET ?? 'bench-secret'] });
const seen = new ExpiringKeys(100_000);
const DAY_MS = 86_400_000;

const app = new Hono();
app.post('/webhooks/agent', async (c) => {
  const raw = new Uint8Array(await c.req.arrayBuffer());
  const v = verifier.verify(raw, c.req.header('x-service-signature'), c.req.header('x-service-timestamp'));
  if (!v.ok) return c.body(null, 401);
  const body = JSON.parse(Buffer.from(raw).toString('utf8'));
  const now = Date.now();
  const dup = seen.has(body.eventId, now);
  if (!dup) seen.add(body.eventId, now + DAY_MS, now);
  return c.json(dup ? { ok: true, duplicate: true } : { ok: true });
});
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
  process.stdout.write(JSON.stringify({ msg: 'listening', port: info.port }) + '\n'),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
