// `npm run bench:profile`: where a verified webhook's server time goes. Runs the bare twin and the
// compiled BFF (memory store) under `node --cpu-prof` at once, side by side on core 0, drives each
// with its own wrk for BENCH_SECONDS, and prints self time by place (Parley's files, Hono,
// @hono/node-server, Node's HTTP and streams, GC) in µs per webhook, then the heaviest functions of
// each. Side by side, as `npm run bench` measures: profiled one after the other, every function
// the two share read up to 30 % apart with the machine's drift between the runs.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../test/helpers/server.js';
import { SECRET } from './load.js';
import { serverEnv } from './server-env.mjs';
import { hasWrk, wrkTogether } from './wrk.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const TOP = Number(process.env.BENCH_TOP ?? 25);
const pin = existsSync('/usr/bin/taskset') ? ['taskset', '-c', '0'] : [];
if (pin.length) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives, in a few readable groups; Parley's own code by file. */
function place(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : `(native) ${fn}`;
  if (url.includes('/@hono/node-server/')) return '@hono/node-server';
  if (url.includes('/node_modules/hono/')) return 'hono';
  const own = /\/dist\/server\/(.*)$/.exec(url);
  if (own) return own[1]!;
  if (url.startsWith('node:internal/')) {
    const mod = url.slice('node:internal/'.length);
    return `node:${mod.startsWith('streams/') || mod.startsWith('http') || mod.startsWith('crypto') ? mod.split('/').slice(0, 2).join('/') : mod.split('/')[0]}`;
  }
  return url.replace(/^file:\/\/.*\/node_modules\//, '');
}

const label = ({ callFrame: { functionName, url, lineNumber } }: ProfileNode) =>
  `${functionName || '(anonymous)'} ${place(url, functionName)}:${lineNumber + 1}`;

/**
 * Self time (µs) per place and per function (with its callers), and the busy total, over the
 * samples taken between `from` and `to` (µs on the profile's clock); idle left out.
 */
function selfTimes(profile: Profile, from: number, to: number) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n);
  const byPlace = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const callers = new Map<string, Map<string, number>>();
  let busy = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    at += us;
    const node = byId.get(id)!;
    if (at < from || at > to || node.callFrame.functionName === '(idle)') return;
    busy += us;
    const where = place(node.callFrame.url, node.callFrame.functionName);
    byPlace.set(where, (byPlace.get(where) ?? 0) + us);
    const fn = label(node);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    const up = parent.get(id);
    const byCaller = callers.get(fn) ?? new Map<string, number>();
    const caller = up ? label(up) : '(root)';
    byCaller.set(caller, (byCaller.get(caller) ?? 0) + us);
    callers.set(fn, byCaller);
  });
  return { byPlace, byFunction, callers, busy };
}

const heaviest = (rows: Map<string, number>, limit: number) => [...rows].sort((a, b) => b[1] - a[1]).slice(0, limit);

function printTable(title: string, rows: Map<string, number>, requests: number, limit: number, callers?: Map<string, Map<string, number>>) {
  console.log(`\n${title}`);
  for (const [name, us] of heaviest(rows, limit)) {
    console.log(`  ${(us / requests).toFixed(2).padStart(7)} µs  ${name}`);
    const from = callers?.get(name);
    if (from) console.log(`             ← ${heaviest(from, 2).map(([c, t]) => `${c} (${Math.round((100 * t) / us)}%)`).join(', ')}`);
  }
}

/** Now on the profiler's clock (µs, monotonic, as V8 stamps its samples). */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** A server under the profiler: where to send load, and how to stop it (which writes its profile). */
interface Profiled {
  url: string;
  stop: () => Promise<void>;
}

/** The profile a stopped server wrote into `dir`. */
function readProfile(name: string, dir: string): Profile {
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error(`${name}: no profile written`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  rmSync(dir, { recursive: true, force: true });
  return profile;
}

async function main() {
  if (!hasWrk) throw new Error('bench:profile needs wrk (apt-get install wrk)');
  if (spawnSync('npm', ['run', '--silent', 'build:server'], { stdio: 'inherit' }).status !== 0) throw new Error('build:server failed');
  const dirs = { bare: mkdtempSync(join(tmpdir(), 'parley-prof-bare-')), bff: mkdtempSync(join(tmpdir(), 'parley-prof-bff-')) };
  const prof = (dir: string) => ['--cpu-prof', `--cpu-prof-dir=${dir}`];
  const bare: Profiled = await (async () => {
    const argv = [...pin, process.execPath, ...prof(dirs.bare), 'bench/bare-server.mjs'];
    const child = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, WEBHOOK_SECRET: SECRET }, stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()).port)));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return { url: `http://127.0.0.1:${port}`, stop: () => (child.kill('SIGTERM'), exited) };
  })();
  const bffServer = await startServer(serverEnv(), { prefix: pin, compiled: true, nodeArgs: prof(dirs.bff) });
  const bff: Profiled = { url: bffServer.url, stop: () => bffServer.stop() };

  await wrkTogether([bare.url, bff.url], 1); // warm-up (JIT)
  const from = nowUs();
  // wrkTogether writes its request files before the load starts: the window holds the load and a little idle.
  const [bareLoad, bffLoad] = await wrkTogether([bare.url, bff.url], SECONDS);
  const to = nowUs();
  await Promise.all([bare.stop(), bff.stop()]);
  const runs = [
    ['bare node:http twin', { ...selfTimes(readProfile('bare', dirs.bare), from, to), ...bareLoad! }],
    ['Parley BFF (memory store)', { ...selfTimes(readProfile('bff', dirs.bff), from, to), ...bffLoad! }],
  ] as const;
  console.log("Both servers at once on core 0, one wrk each: a sample's time includes the other server's turns on the core, so compare the two servers' figures, not these µs with other benches.");
  for (const [name, run] of runs) {
    console.log(`\n== ${name}: ${run.rps.toFixed(0)} webhooks/s under the profiler, ${(run.busy / run.requests).toFixed(1)} µs busy per webhook`);
    printTable('self time per webhook, by place', run.byPlace, run.requests, Number(process.env.BENCH_PLACES ?? 18));
  }
  const [[, bareRun], [, bffRun]] = runs;
  printTable('bare twin: heaviest functions (self time per webhook, ← callers)', bareRun.byFunction, bareRun.requests, 12, bareRun.callers);
  printTable('BFF: heaviest functions (self time per webhook, ← callers)', bffRun.byFunction, bffRun.requests, TOP, bffRun.callers);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
