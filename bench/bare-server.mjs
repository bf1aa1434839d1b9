// The baseline: a bare node:http server doing the same webhook work as the BFF (raw body, HMAC
// verify with the BFF's own compiled verifier, JSON parse, dedup bounded by age and count with the
// BFF's own key set, 200). Plain JS run by node, like the compiled BFF, so neither pays for a
// TypeScript loader.
import { createServer } from 'node:http';
import { ExpiringKeys } from '../dist/server/bff/src/lib/expiring-keys.js';
import { WebhookVerifier } from '../dist/server/bff/src/lib/webhook-verify.js';

const verifier = new WebhookVerifier({ secrets: [process.env.WEBHOOK_SECRET ?? 'bench-secret'] });
const seen = new ExpiringKeys(100_000);
const DAY_MS = 86_400_000;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks);
    const v = verifier.verify(raw, req.headers['x-service-signature'], req.headers['x-service-timestamp']);
    if (!v.ok) return void res.writeHead(401).end();
    const body = JSON.parse(raw.toString('utf8'));
    const now = Date.now();
    const dup = seen.has(body.eventId, now);
    if (!dup) seen.add(body.eventId, now + DAY_MS, now);
    res.writeHead(200, { 'content-type': 'application/json' }).end(dup ? '{"ok":true,"duplicate":true}' : '{"ok":true}');
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ msg: 'listening', port: server.address().port }) + '\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
