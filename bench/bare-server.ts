// The baseline: a bare node:http server doing the same webhook work as the BFF
// (raw body, HMAC verify with the same verifier, JSON parse, bounded dedup, 200).
import { createServer } from 'node:http';
import { WebhookVerifier } from '../bff/src/lib/webhook-verify.js';

const verifier = new WebhookVerifier({ secrets: [process.env.WEBHOOK_SECRET ?? 'bench-secret'] });
const seen = new Map<string, number>();
const MAX_SEEN = 100_000;

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const v = verifier.verify(raw, req.headers['x-service-signature'] as string, req.headers['x-service-timestamp'] as string);
    if (!v.ok) {
      res.writeHead(401).end();
      return;
    }
    const body = JSON.parse(raw.toString('utf8')) as { eventId: string };
    const dup = seen.has(body.eventId);
    if (!dup) {
      seen.set(body.eventId, Date.now());
      if (seen.size > MAX_SEEN) seen.delete(seen.keys().next().value!);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(dup ? '{"ok":true,"duplicate":true}' : '{"ok":true}');
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(JSON.stringify({ msg: 'listening', port: address.port }) + '\n');
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
