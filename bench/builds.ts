// `BENCH_BASE=<checkout> npm run bench:builds`: webhook ingest of this checkout's compiled BFF
// against another checkout's (main before a change, say; it needs `dist/server` built and
// node_modules), side by side in one run. Both servers on core 0, each measured alone (the other
// SIGSTOPped), wrk on core 1; the order flips every turn so drift hits both alike. This is how a
// change's cost on the webhook path is measured (docs/design-choices.md, prom-client).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServer, type SpawnedServer } from '../test/helpers/server.js';
import { cpuSeconds } from './load.js';
import { serverEnv } from './server-env.mjs';
import { hasWrk, wrkBlast } from './wrk.js';

const BASE = process.env.BENCH_BASE;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const TURNS = Number(process.env.BENCH_RUNS ?? 6);
const pin = existsSync('/usr/bin/taskset') ? ['taskset', '-c', '0'] : [];
if (pin.length) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });

const env = serverEnv();

/** One run of `side` with `other` stopped: requests/s and CPU µs per webhook. */
async function run(side: SpawnedServer, other: SpawnedServer, seconds: number): Promise<{ rps: number; cpuUs: number }> {
  other.process.kill('SIGSTOP');
  try {
    const before = await cpuSeconds(side.process.pid!);
    const { rps, requests } = wrkBlast(side.url, seconds);
    return { rps, cpuUs: ((await cpuSeconds(side.process.pid!)) - before) * 1e6 / Math.max(1, requests) };
  } finally {
    other.process.kill('SIGCONT');
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[]) => `${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)}`;

async function main() {
  if (!BASE || !existsSync(resolve(BASE, 'dist/server/bff/src/server.js'))) throw new Error('BENCH_BASE=<checkout with dist/server built> is required');
  if (!hasWrk) throw new Error('bench:builds needs wrk (apt-get install wrk)');
  if (spawnSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' }).status !== 0) throw new Error('build:server failed');
  const options = { prefix: pin, compiled: true };
  const base = await startServer(env, { ...options, root: resolve(BASE) });
  const head = await startServer(env, options);
  try {
    await run(base, head, 1); // warm-up (JIT)
    await run(head, base, 1);
    const rps: number[] = [];
    const cpu: number[] = [];
    for (let turn = 0; turn < TURNS; turn++) {
      const [first, second] = turn % 2 ? [head, base] : [base, head];
      const a = await run(first, second, SECONDS);
      const b = await run(second, first, SECONDS);
      const [h, bs] = turn % 2 ? [a, b] : [b, a];
      rps.push(h.rps / bs.rps);
      cpu.push(bs.cpuUs / h.cpuUs);
      console.log(`turn ${turn + 1}: base ${bs.rps.toFixed(0)}/s ${bs.cpuUs.toFixed(1)} µs, this ${h.rps.toFixed(0)}/s ${h.cpuUs.toFixed(1)} µs`);
    }
    console.log(`\nthis build / base, webhooks/s:           ${median(rps).toFixed(3)}× (turns ${spread(rps)}, ${TURNS} turns of ${SECONDS} s)`);
    console.log(`this build / base, by CPU per webhook:    ${median(cpu).toFixed(3)}× (turns ${spread(cpu)})`);
  } finally {
    await Promise.all([base.stop(), head.stop()]);
  }
}

await main();
