// In-process cost of one webhook, without HTTP: `node --expose-gc bench/ingest-inproc.mjs [checkout]` runs the
// compiled BFF's `ingestBody` (from `<checkout>/dist/server`, this one by default) and the bare
// twin's work (verify, parse, dedup) over the same pre-signed bodies, alternating rounds, and
// prints CPU µs per webhook and GC µs per webhook for each. Less sensitive to a loaded machine
// than requests/s over loopback, since it counts only this process's CPU time.
import { PerformanceObserver } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SECRET, serverEnv } from './server-env.mjs';

const root = resolve(process.argv[2] ?? '.');
const load = (path) => import(pathToFileURL(resolve(root, 'dist/server/bff/src', path)).href);
const { loadConfig } = await load('config.js');
const { assemble } = await load('assemble.js');
const { ingestBody } = await load('routes/webhook-ingest.js');
const { createLogger } = await load('logger.js');
const { ExpiringKeys } = await load('lib/expiring-keys.js');
const { signWebhook } = await load('lib/webhook-verify.js');

const ROUNDS = Number(process.env.INPROC_ROUNDS ?? 10);
const PER_ROUND = Number(process.env.INPROC_PER_ROUND ?? 50_000);

const config = loadConfig(serverEnv(process.env.EVENT_RETENTION_COUNT ? { EVENT_RETENTION_COUNT: process.env.EVENT_RETENTION_COUNT } : {}));
const { deps } = await assemble(config, { logger: createLogger('info'), serviceBaseUrl: 'http://127.0.0.1:9' });

let counter = 0;
/** Bodies shaped like bench/load.ts's webhooks (1,000 conversations, unique event ids). */
function bodies(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const c = ++counter;
    const body = JSON.stringify({ event: 'message.added', eventId: `evt_${process.pid}_${c}`, sessionId: (c % 1000) + 1, createdAt: Date.now(), data: { messageId: c, message: `Benchmark message ${c}`, hbo: 'bot' } });
    const ts = String(Math.floor(Date.now() / 1000));
    out.push({ raw: Buffer.from(body), signature: signWebhook(SECRET, ts, body), timestamp: ts });
  }
  return out;
}

let gcMs = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
}).observe({ entryTypes: ['gc'] });

const verifier = deps.verifier;
const seen = new ExpiringKeys(100_000);
const DAY_MS = 86_400_000;
function twin(w) {
  const v = verifier.verify(w.raw, w.signature, w.timestamp);
  if (!v.ok) throw new Error('twin: bad signature');
  const body = JSON.parse(w.raw.toString('utf8'));
  const now = Date.now();
  if (!seen.has(body.eventId, now)) seen.add(body.eventId, now + DAY_MS, now);
}

async function bff(batch) {
  let pending = [];
  for (const w of batch) {
    const answer = ingestBody(deps, w.raw, { requestId: 'r', signature: w.signature, timestamp: w.timestamp }, performance.now());
    if (typeof answer !== 'string') pending.push(answer);
    if (pending.length >= 64) {
      await Promise.all(pending);
      pending = [];
    }
  }
  await Promise.all(pending);
}

async function measure(fn, batch) {
  // The bodies were just made: move them out of the young generation first, so their copying
  // is not counted against either side.
  if (process.env.INPROC_FULL_GC !== '0') {
    globalThis.gc?.();
    globalThis.gc?.();
  }
  await new Promise((r) => setTimeout(r, 20));
  const gcBefore = gcMs;
  const cpu = process.cpuUsage();
  await fn(batch);
  const used = process.cpuUsage(cpu);
  await new Promise((r) => setTimeout(r, 20)); // let the gc entries arrive
  return { cpuUs: (used.user + used.system) / batch.length, gcUs: ((gcMs - gcBefore) * 1000) / batch.length };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = { twin: [], bff: [] };
const runTwin = async (batch) => batch.forEach(twin);
await measure(runTwin, bodies(PER_ROUND)); // warm-up
await measure(bff, bodies(PER_ROUND));
const sides = process.env.INPROC_SIDE ? [process.env.INPROC_SIDE] : ['twin', 'bff'];
const all = process.cpuUsage();
let gcAll = gcMs;
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? [...sides].reverse() : sides;
  for (const side of order) results[side].push(await measure(side === 'bff' ? bff : runTwin, bodies(PER_ROUND)));
}
if (sides.length === 1) {
  const used = process.cpuUsage(all);
  console.log(`all rounds: ${((used.user + used.system) / (ROUNDS * PER_ROUND)).toFixed(2)} µs/webhook incl. making bodies, gc ${(((gcMs - gcAll) * 1000) / (ROUNDS * PER_ROUND)).toFixed(2)} µs`);
}
for (const side of sides) {
  const cpu = results[side].map((m) => m.cpuUs);
  const gc = results[side].map((m) => m.gcUs);
  console.log(`${side.padEnd(5)} cpu ${median(cpu).toFixed(2)} µs/webhook (${Math.min(...cpu).toFixed(2)}–${Math.max(...cpu).toFixed(2)}), gc ${median(gc).toFixed(2)} µs/webhook`);
}
process.exit(0);
