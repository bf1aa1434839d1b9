// `npm run bench`: webhook throughput against a bare node:http twin, webhook → stream latency
// (alone, and at 500 webhooks/s across 20,000 open streams), RSS per idle stream up to 100,000 on
// one instance (or as many as the open-file limit allows, said before it starts), and the same with
// Redis and two instances. Servers are pinned to core 0 and the load (wrk, the stream client
// processes) runs on core 1 (when taskset exists); everything talks over loopback only (127.0.0.x).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { MemoryOnceStore } from '../bff/src/adapters/memory-limits.js';
import { TokenService } from '../bff/src/lib/tokens.js';
import { startServer, type SpawnedServer } from '../test/helpers/server.js';
import { startRedisServer } from '../test/redis/redis-server.js';
import { canRaiseTo, fileLimits, openFiles, StreamPlan } from './limits.js';
import { blast, cpuSeconds, pct, post, rawStream, rss, SECRET, webhook } from './load.js';
import { conversationOf, StreamClients, type OnFrame } from './stream-clients.js';
import { JWT_SECRET, serverEnv } from './server-env.mjs';
import { hasWrk, wrkBlast, wrkTogether } from './wrk.js';
import { Agent } from 'node:http';
import { cpus, loadavg } from 'node:os';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 100_000);
const STREAM_COUNTS = (process.env.BENCH_STREAM_COUNTS ?? `10000,${STREAMS}`).split(',').map(Number);
const FANOUT_STREAMS = Number(process.env.BENCH_FANOUT_STREAMS ?? 20_000);
const FANOUT_RATE = Number(process.env.BENCH_FANOUT_RATE ?? 500);
const FANOUT_SECONDS = Number(process.env.BENCH_FANOUT_SECONDS ?? 10);
const REDIS_STREAMS = Number(process.env.BENCH_REDIS_STREAMS ?? 10_000);
const pin = existsSync('/usr/bin/taskset') ? ['taskset', '-c', '0'] : [];

/**
 * Open files the BFF needs for the largest count asked for: a socket per stream, all in its one
 * process (the client side is spread over child processes, bench/stream-clients.ts). Node raises
 * its soft limit to the hard one by itself; past the hard limit only a shell with CAP_SYS_RESOURCE
 * (root outside a container) may go, so the run goes again through one when that would help. The
 * servers it starts inherit the limit. What the limit allows is printed before any stream opens.
 */
const FILES = Math.max(...(process.env.BENCH_ONLY === 'ingest' ? [0] : [STREAMS, ...STREAM_COUNTS, FANOUT_STREAMS, REDIS_STREAMS])) + 1_000;
if (fileLimits().hard < FILES && process.env.BENCH_FILES_RAISED !== '1' && canRaiseTo(FILES)) {
  const again = spawnSync('sh', ['-c', `ulimit -n ${FILES}; exec "$@"`, 'sh', process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_FILES_RAISED: '1' },
  });
  process.exit(again.status ?? 1);
}
if (pin.length) spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });

/**
 * Every server this run started, stopped however the run ends (finished, failed, interrupted): a
 * benchmark that fails must not leave a BFF holding a core and its streams.
 */
const started = new Set<{ stop(): Promise<void> | void }>();
function own<T extends { stop(): Promise<void> | void }>(server: T): T {
  started.add(server);
  return server;
}
const stopAll = () => Promise.allSettled([...started].map((s) => s.stop()));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().finally(() => process.exit(130)));
/** A failure anywhere (a benchmark's promise, a socket's error event) ends the run the same way. */
async function fail(err: unknown): Promise<never> {
  console.error(err);
  await stopAll();
  process.exit(1);
}
process.once('uncaughtException', fail);
process.once('unhandledRejection', fail);

const tokens = new TokenService({ secret: JWT_SECRET, accessTtlSec: 3600, refreshTtlSec: 3600, onceStore: new MemoryOnceStore() });
const env = (extra: Record<string, string> = {}) =>
  serverEnv({
    RATE_LIMIT_SESSIONS_PER_MIN: '1000000',
    MAX_STREAMS_PER_CLIENT: '100000', // every stream comes from 127.0.0.1
    ...extra,
  });
const results: Array<[string, string]> = [];
const report = (name: string, value: string) => {
  results.push([name, value]);
  console.log(`${name.padEnd(58)} ${value}`);
};

/** Starts one of the twins (`bench/bare-server.mjs`, `bench/hono-server.mjs`) on core 0. */
async function spawnTwin(file: string): Promise<{ url: string; child: ChildProcess }> {
  const argv = [...pin, process.execPath, file];
  const child = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, WEBHOOK_SECRET: SECRET }, stdio: ['ignore', 'pipe', 'inherit'] });
  own({ stop: () => void child.kill('SIGKILL') });
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d: Buffer) => resolve(JSON.parse(d.toString()).port)));
  return { url: `http://127.0.0.1:${port}`, child };
}

/** One throughput run: wrk against the first target when installed, else the Node client over all (slower, so ratios flatten). */
async function load(targets: string[], seconds: number): Promise<{ rps: number; requests: number }> {
  if (hasWrk) return wrkBlast(targets[0]!, seconds);
  return blast(targets, seconds * 1000);
}

/** The servers of one side of a comparison: where the load goes, and every process of that side. */
interface Side {
  targets: string[];
  pids: number[];
}

/**
 * Runs `fn` with the other side's processes stopped (SIGSTOP): a server that just took a million
 * webhooks runs major GCs for seconds after, on the same core, and would be measured as the
 * other side's cost.
 */
async function alone<T>(others: Side, fn: () => Promise<T>): Promise<T> {
  for (const pid of others.pids) process.kill(pid, 'SIGSTOP');
  try {
    return await fn();
  } finally {
    // A side stopped meanwhile (the run failing or interrupted) has nothing left to continue.
    for (const pid of others.pids) {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {}
    }
  }
}

/** What one side did: requests/s, and its processes' CPU time per request in microseconds (medians), and every run's requests/s. */
interface Measured {
  rps: number;
  cpuUs: number;
  runs: number[];
}

const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** CPU seconds used so far by a side's processes. */
const cpu = async (side: Side) => (await Promise.all(side.pids.map(cpuSeconds))).reduce((a, b) => a + b, 0);
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

/** The ratio of two sides' medians, with the lowest and highest of the ratios of the runs taken in the same turn. */
function ratioWithSpread(side: Measured, base: Measured): string {
  const each = side.runs.map((r, i) => r / base.runs[i]!).sort((x, y) => x - y);
  return `${(side.rps / base.rps).toFixed(2)}× (runs ${each[0]!.toFixed(2)}–${each[each.length - 1]!.toFixed(2)}, ${each.length} turns)`;
}

/**
 * Median of `runs` throughput runs per side, taking turns so drift hits all alike, each side
 * alone. CPU per request counts only the time the side's processes ran, so it holds steadier
 * than requests/s when other work shares the machine.
 */
async function throughput(sides: Side[], runs = RUNS): Promise<Measured[]> {
  const others = (side: Side): Side => ({ targets: [], pids: sides.filter((s) => s !== side).flatMap((s) => s.pids) });
  for (const side of sides) await alone(others(side), () => load(side.targets, 1)); // warm-up (JIT)
  const measured: Array<Array<{ rps: number; cpuUs: number }>> = sides.map(() => []);
  for (let i = 0; i < runs; i++) {
    for (const [n, side] of sides.entries()) {
      measured[n]!.push(
        await alone(others(side), async () => {
          const before = await cpu(side);
          const { rps, requests } = await load(side.targets, SECONDS);
          return { rps, cpuUs: ((await cpu(side)) - before) * 1e6 / Math.max(1, requests) };
        }),
      );
    }
  }
  return measured.map((ms) => ({ rps: median(ms.map((m) => m.rps)), cpuUs: median(ms.map((m) => m.cpuUs)), runs: ms.map((m) => m.rps) }));
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);

/**
 * The ratio of CPU per webhook, `side` against `base`, with both servers on core 0 at the same
 * time (the scheduler shares the core) and a wrk for each on core 1 (started in turns), `ROUNDS` rounds of
 * `SECONDS`: whatever else the machine does (its speed here swings 2× within a minute) hits both
 * in the same moments, so the ratio holds far steadier than one from turns taken one after the
 * other. Prints the median and the lowest and highest round.
 */
async function sideBySide(base: Side, side: Side): Promise<{ median: number; low: number; high: number; baseUs: number; sideUs: number }> {
  await wrkTogether([base.targets[0]!, side.targets[0]!], 1); // warm-up (JIT)
  const ratios: number[] = [];
  const baseUs: number[] = [];
  const sideUs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const before = await Promise.all([cpu(base), cpu(side)]);
    // Every other round the side's wrk starts first: with the order fixed, the second of two
    // identical servers read 1.00–1.05× the first (four runs of 8 rounds); taking turns, 1.00×.
    const sideFirst = i % 2 === 1;
    const pair = await wrkTogether(sideFirst ? [side.targets[0]!, base.targets[0]!] : [base.targets[0]!, side.targets[0]!], SECONDS);
    const [b, s] = sideFirst ? [pair[1], pair[0]] : pair;
    const after = await Promise.all([cpu(base), cpu(side)]);
    baseUs.push(((after[0] - before[0]) * 1e6) / Math.max(1, b!.requests));
    sideUs.push(((after[1] - before[1]) * 1e6) / Math.max(1, s!.requests));
    ratios.push(baseUs.at(-1)! / sideUs.at(-1)!);
  }
  return { median: median(ratios), low: Math.min(...ratios), high: Math.max(...ratios), baseUs: median(baseUs), sideUs: median(sideUs) };
}

/** Webhook POSTed to `postTo` → frame read from a stream on `streamFrom`; warm, sequential samples. */
async function latency(postTo: string, streamFrom: SpawnedServer, samples = 1000): Promise<number[]> {
  const conversation = 900_000 + Math.floor(Math.random() * 1000);
  const { token } = await tokens.issue(String(conversation), undefined);
  const waiting = new Map<string, () => void>();
  const socket = await rawStream(streamFrom.port, token, (text) => {
    for (const m of text.matchAll(/"text":"(lat-\d+)"/g)) waiting.get(m[1]!)?.();
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL('/webhooks/agent', postTo);
  const times: number[] = [];
  for (let i = 0; i < samples + 200; i++) {
    const { body, headers } = webhook(conversation, `lat-${i}`);
    const got = new Promise<void>((resolve) => waiting.set(`lat-${i}`, resolve));
    const started = performance.now();
    await post(agent, url, body, headers);
    await got;
    if (i >= 200) times.push(performance.now() - started);
    waiting.delete(`lat-${i}`);
  }
  socket.destroy();
  agent.destroy();
  return times.sort((a, b) => a - b);
}

/** Client processes holding streams, stopped with the servers if the run fails. */
function streamClients(onFrame?: OnFrame): StreamClients {
  return own(new StreamClients(tokens, onFrame));
}

/** Settled (why a fixed wait): RSS is read once the last streams' first writes and any GC they set off are done. */
const settle = () => new Promise((r) => setTimeout(r, 2000));

/**
 * Opens `count` idle streams over `servers` in two halves and returns the servers' RSS growth per
 * stream over all of them and over the second half alone: the second is what one more stream
 * costs once the server's fixed growth (heap pages, compiled code) is behind it.
 */
async function rssPerStream(servers: SpawnedServer[], count: number): Promise<{ all: number; secondHalf: number }> {
  const total = async () => (await Promise.all(servers.map((s) => rss(s.process.pid!)))).reduce((a, b) => a + b, 0);
  const clients = streamClients();
  try {
    const before = await total();
    const half = Math.floor(count / 2);
    await clients.open(servers, 0, half);
    await settle();
    const middle = await total();
    await clients.open(servers, half, count);
    await settle();
    const after = await total();
    if (clients.dropped > 0) throw new Error(`${clients.dropped} of ${count} idle streams dropped while measuring`);
    return { all: (after - before) / count, secondHalf: (after - middle) / (count - half) };
  } finally {
    clients.stop();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** Nanosecond clock shared by every process on the machine (CLOCK_MONOTONIC), in ms. */
const clock = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * Webhook → stream latency under load: `streams` streams open (one conversation each, held by
 * client processes), webhooks signed as the service signs them sent at `rate` a second for
 * `seconds` to those conversations in turn, each sent without waiting for the one before (as the
 * service sends them, over a keep-alive pool of 64 connections). A sample runs from the send to
 * the message read on its own conversation's stream (a message on any other stream is counted as
 * misrouted). Before the paced run every conversation gets one webhook, 64 at a time, so the
 * server's code is optimised and each conversation has history, as in a server that has been
 * running; the paced run's first second is not counted either. Returns the sorted samples, the
 * sorted times to the webhook's answer, the rate reached, and what was refused, lost, misrouted
 * or dropped.
 */
async function fanOutLatency(server: SpawnedServer, streams: number, rate: number, seconds: number) {
  const sentAt = new Map<number, number>();
  const times: number[] = [];
  const answered: number[] = [];
  let counted = Infinity;
  let misrouted = 0;
  let failed = 0;
  const clients = streamClients((i, n, at) => {
    const sent = sentAt.get(n);
    if (sent === undefined) return;
    if (i !== n % streams) return void misrouted++;
    sentAt.delete(n);
    if (n >= counted) times.push(at - sent);
  });
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL('/webhooks/agent', server.url);
  /** Sends message `n` to conversation n mod streams; resolves when it is answered. */
  const send = (n: number): Promise<void> => {
    const { body, headers } = webhook(conversationOf(n % streams), `fan-${n}`);
    const at = clock();
    sentAt.set(n, at);
    return post(agent, url, body, headers).then(
      (status) => {
        if (status !== 200) failed++;
        else if (n >= counted) answered.push(clock() - at);
      },
      () => void failed++,
    );
  };
  /** Waits by condition, up to `ms`, for the messages sent so far (those still missing are lost). */
  const arrived = async (ms: number) => {
    const deadline = clock() + ms;
    while (sentAt.size > 0 && clock() < deadline) await new Promise((r) => setTimeout(r, 20));
  };
  try {
    await clients.open([server], 0, streams);
    let next = 0;
    await Promise.all(Array.from({ length: 64 }, async () => {
      while (next < streams) await send(next++);
    }));
    await arrived(30_000); // a loaded machine may still be working through the burst
    if (sentAt.size > 0 || failed > 0) throw new Error(`warm-up: ${sentAt.size} of ${streams} webhooks never reached their stream, ${failed} refused`);
    const first = next;
    const cpuBefore = await cpuSeconds(server.process.pid!);
    const start = clock();
    const end = start + seconds * 1000;
    counted = first + Math.round(rate); // the first second's webhooks are not counted
    while (clock() < end) {
      const due = first + Math.floor(((clock() - start) * rate) / 1000);
      for (; next < due; next++) void send(next);
      await new Promise((r) => setTimeout(r, 1));
    }
    const elapsed = (clock() - start) / 1000;
    const serverBusy = ((await cpuSeconds(server.process.pid!)) - cpuBefore) / elapsed;
    await arrived(5_000);
    const sort = (xs: number[]) => xs.sort((a, b) => a - b);
    return { times: sort(times), answered: sort(answered), rate: (next - first) / elapsed, serverBusy, lost: sentAt.size, failed, misrouted, dropped: clients.dropped };
  } finally {
    agent.destroy();
    clients.stop();
  }
}

/**
 * What the file limits allow, from a BFF started for the purpose (the files it holds at start),
 * printed before any stream opens.
 */
async function streamPlan(memory: () => Promise<SpawnedServer>, parts: Array<[string, number]>): Promise<StreamPlan> {
  const probe = await memory();
  const plan = new StreamPlan(openFiles(probe.process.pid!));
  await finish([probe]);
  console.log(plan.describe(parts.map(([, n]) => n)));
  for (const [what, count] of parts) {
    const n = count.toLocaleString('en');
    console.log(`  ${what}, ${n} streams: ${count <= plan.bffMax ? 'measured' : `past the limit (${plan.filesFor(count).toLocaleString('en')} open files needed), measured at ${plan.bffMax.toLocaleString('en')}`}`);
  }
  console.log('');
  return plan;
}

/** The count to measure for `requested`: it, or the largest the limit allows, saying why. */
function reachable(plan: StreamPlan, requested: number, what: string): number {
  const refusal = plan.refusal(requested);
  if (!refusal) return requested;
  console.log(`${what} at ${requested.toLocaleString('en')} not measured: ${refusal}. Measured at ${plan.bffMax.toLocaleString('en')}, the most this limit allows.`);
  return plan.bffMax;
}

async function main() {
  // Measure what production runs: the compiled server, not the sources through a loader.
  // The demo build too: with no UPSTREAM_BASE_URL the simulator stands in for the service.
  // BENCH_BUILD=0 measures the dist/ already built (a run straight after another).
  for (const script of process.env.BENCH_BUILD === '0' ? [] : ['build:widget', 'build:server', 'build:demo']) {
    if (spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit' }).status !== 0) throw new Error(`${script} failed`);
  }
  console.log(`Parley benchmarks — ${SECONDS}s runs, servers on core 0 (${pin.length ? 'pinned' : 'unpinned'}), load from ${hasWrk ? 'wrk' : 'the Node http client (apt-get install wrk for a faster one)'}, node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)}\n`);
  widgetSizes();
  // Each comparison starts fresh servers: a memory BFF that has taken a million webhooks holds
  // a million retained events in its heap, and its GC would be measured instead of the code.
  const memory = async () => own(await startServer(env(), { prefix: pin, compiled: true }));
  // BENCH_ONLY=fanout,streams runs both of these parts (and builds once).
  const only = new Set(process.env.BENCH_ONLY?.split(','));
  const parts: Array<[string, number]> =
    only.has('fanout') || only.has('streams')
      ? [...(only.has('fanout') ? [['webhook → stream latency', FANOUT_STREAMS] as [string, number]] : []), ...(only.has('streams') ? STREAM_COUNTS.map((n): [string, number] => ['RSS per idle stream', n]) : [])]
      : [['webhook → stream latency', FANOUT_STREAMS], ['RSS per idle stream', STREAMS]];
  const plan = only.has('ingest') ? undefined : await streamPlan(memory, parts);
  if (only.has('fanout') || only.has('streams')) {
    if (only.has('fanout')) await fanOut(memory, plan!);
    if (only.has('streams')) await idleStreams(memory, plan!);
    return;
  }

  // 1. Memory mode against the bare twin, with the same work on Hono between them. The figure to go by (docs/benchmarks.md): CPU per webhook side by side, each against the bare
  // twin, every server fresh.
  if (hasWrk) {
    for (const [name, start] of [
      ['Hono route', () => spawnTwin('bench/hono-server.mjs')],
      [
        'BFF',
        async () => {
          const s = await memory();
          return { url: s.url, child: s.process };
        },
      ],
    ] as const) {
      const bare = await spawnTwin('bench/bare-server.mjs');
      const other = await start();
      const r = await sideBySide({ targets: [bare.url], pids: [bare.child.pid!] }, { targets: [other.url], pids: [other.child.pid!] });
      report(`ratio ${name} / bare, CPU per webhook side by side`, `${r.median.toFixed(2)}× (rounds ${r.low.toFixed(2)}–${r.high.toFixed(2)}, ${ROUNDS} rounds; ${r.baseUs.toFixed(1)} / ${r.sideUs.toFixed(1)} µs)`);
      for (const child of [bare.child, other.child]) child.kill('SIGKILL');
    }
  }

  // Then the rates, fresh servers again, taking turns (they follow the machine's speed).
  const bare = await spawnTwin('bench/bare-server.mjs');
  const hono = await spawnTwin('bench/hono-server.mjs');
  const bff = await memory();
  const [bareRun, honoRun, bffRun] = await throughput([
    { targets: [bare.url], pids: [bare.child.pid!] },
    { targets: [hono.url], pids: [hono.child.pid!] },
    { targets: [bff.url], pids: [bff.process.pid!] },
  ]);
  report('verified webhooks/s, bare node:http (same HMAC + dedup)', bareRun!.rps.toFixed(0));
  report('verified webhooks/s, the same as one Hono route', honoRun!.rps.toFixed(0));
  report('verified webhooks/s, Parley BFF (memory store)', bffRun!.rps.toFixed(0));
  report('ratio Hono route / bare', ratioWithSpread(honoRun!, bareRun!));
  report('ratio BFF / bare', ratioWithSpread(bffRun!, bareRun!));
  report('server CPU per webhook, µs: bare / Hono route / BFF', [bareRun, honoRun, bffRun].map((r) => r!.cpuUs.toFixed(1)).join(' / '));
  report('ratio by CPU per webhook, Hono route / bare, BFF / bare', `${(bareRun!.cpuUs / honoRun!.cpuUs).toFixed(2)}×, ${(bareRun!.cpuUs / bffRun!.cpuUs).toFixed(2)}×`);
  for (const twin of [bare, hono]) twin.child.kill('SIGTERM');
  const lat = await latency(bff.url, bff);
  report('webhook → stream latency, memory (p50 / p99)', `${pct(lat, 50).toFixed(2)} / ${pct(lat, 99).toFixed(2)} ms`);
  await finish([bff]);
  if (!plan) return;
  await fanOut(memory, plan);

  // 2. Redis mode, two instances and redis-server all on core 0, against a fresh memory BFF.
  let redis;
  if (process.env.BENCH_SKIP_REDIS !== '1') {
    try {
      redis = own(await startRedisServer());
      if (pin.length) spawnSync('taskset', ['-p', '-c', '0', String(redis.pid)], { stdio: 'ignore' });
    } catch (err) {
      console.log(`\nRedis part skipped: ${(err as Error).message}`);
    }
  }
  let a: SpawnedServer | undefined;
  let b: SpawnedServer | undefined;
  if (redis) {
    const mem = await memory();
    a = own(await startServer(env({ REDIS_URL: redis.url }), { prefix: pin, compiled: true }));
    b = own(await startServer(env({ REDIS_URL: redis.url }), { prefix: pin, compiled: true }));
    // B is up and subscribed, load goes to A; Redis belongs to that side.
    const [memRun, redisRun] = await throughput([
      { targets: [mem.url], pids: [mem.process.pid!] },
      { targets: [a.url], pids: [a.process.pid!, b.process.pid!, redis.pid!] },
    ]);
    await finish([mem]);
    report('verified webhooks/s, memory (1 instance)', memRun!.rps.toFixed(0));
    report('verified webhooks/s, Redis (to A; B, A and Redis on core 0)', redisRun!.rps.toFixed(0));
    report('ratio Redis / memory', `${(redisRun!.rps / memRun!.rps).toFixed(2)}×`);
    report('CPU per webhook, µs: memory / Redis (A, B and redis-server)', `${memRun!.cpuUs.toFixed(1)} / ${redisRun!.cpuUs.toFixed(1)}`);
    const cross = await latency(a.url, b);
    report('webhook on A → stream on B, Redis (p50 / p99)', `${pct(cross, 50).toFixed(2)} / ${pct(cross, 99).toFixed(2)} ms`);
  }

  // 3. Memory per idle stream, last: thousands of connections churn the heap.
  await idleStreams(memory, plan, [STREAMS]);
  if (a && b && redis) {
    // Each instance holds half: two processes, each under its own limit.
    const count = Math.min(REDIS_STREAMS, 2 * plan.bffMax);
    const r = await rssPerStream([a, b], count);
    report(`RSS per idle stream, Redis (${count} streams over A+B)`, `${kb(r.all)} (second half ${kb(r.secondHalf)})`);
    await finish([a, b]);
    await redis.stop();
  }
}

/**
 * Webhook → stream p50 / p95 / p99 at `FANOUT_RATE` webhooks/s across `FANOUT_STREAMS` open
 * streams (or as many as the file limit allows), on a fresh memory-mode server.
 */
async function fanOut(memory: () => Promise<SpawnedServer>, plan: StreamPlan): Promise<void> {
  const streams = reachable(plan, FANOUT_STREAMS, 'Webhook → stream latency');
  const server = await memory();
  const r = await fanOutLatency(server, streams, FANOUT_RATE, FANOUT_SECONDS);
  await finish([server]);
  if (r.times.length === 0) throw new Error(`no webhook reached its stream (${r.lost} lost, ${r.failed} refused)`);
  const p99 = pct(r.times, 99);
  report(
    `webhook → stream at ${FANOUT_RATE}/s, ${streams} streams open (p50 / p95 / p99)`,
    `${[50, 95, 99].map((p) => pct(r.times, p).toFixed(2)).join(' / ')} ms (goal p99 ≤ 5 ms: ${p99 <= 5 ? 'met' : 'not met'}; ` +
      `${r.rate.toFixed(0)} webhooks/s sent, the BFF busy ${(r.serverBusy * 100).toFixed(0)} % of a core, load average ${loadavg()[0]!.toFixed(1)}, ${r.times.length} samples, ${r.lost} lost, ${r.failed} refused, ${r.misrouted} on another stream, ${r.dropped} streams dropped; ` +
      `webhook answered p50 / p99 ${pct(r.answered, 50).toFixed(2)} / ${pct(r.answered, 99).toFixed(2)} ms)`,
  );
}

/**
 * RSS per idle stream at each of `counts` (`BENCH_ONLY=streams`: BENCH_STREAM_COUNTS, default
 * 10,000 and `BENCH_STREAMS`, 100,000), a fresh memory-mode server for each. A count past what
 * the file limit allows is said so, with the limit, and measured at the largest count it allows.
 */
async function idleStreams(memory: () => Promise<SpawnedServer>, plan: StreamPlan, counts = STREAM_COUNTS): Promise<void> {
  const measured = new Set<number>();
  for (const requested of counts) {
    const count = reachable(plan, requested, 'RSS per idle stream');
    if (measured.has(count)) continue;
    measured.add(count);
    const server = await memory();
    const r = await rssPerStream([server], count);
    await finish([server]);
    report(`RSS per idle stream, memory (${count} streams)`, `${kb(r.all)} (second half ${kb(r.secondHalf)}; goal ≤ 16 KB: ${r.all <= 16 * 1024 ? 'met' : 'not met'})`);
  }
}

/** The widget's files against their budgets (hard ceilings in widget/src/size.test.ts; goals: loader 2 KB, chat 32 KB gzip). */
function widgetSizes(): void {
  type Described = { file: string; gzipBytes: number; brotliBytes: number; integrity: string };
  const m = JSON.parse(readFileSync('dist/widget/manifest.json', 'utf8')) as Described & { chat: Described; parts: Described; esm: Described };
  const row = (what: string, f: Described, goal: number, ceiling: number) =>
    report(what, `${f.gzipBytes} B gzip, ${f.brotliBytes} B brotli (goal ${goal} KB, ceiling ${ceiling} KB) ${f.integrity.slice(0, 20)}…`);
  row('widget.js, the loader every visitor downloads', m, 2, 3);
  row(`${m.chat.file}, the chat, fetched when needed (widget.mjs import()s it too)`, m.chat, 32, 40);
  report(`${m.parts.file}, its parts for few visitors (pre-chat form, rating, lightbox, transcript)`, `${m.parts.gzipBytes} B gzip, ${m.parts.brotliBytes} B brotli ${m.parts.integrity.slice(0, 20)}…`);
  row('widget.mjs, for npm users (the entry)', m.esm, 2, 3);
  console.log('');
}

async function finish(servers: SpawnedServer[]) {
  await Promise.all(servers.map((s) => s.stop()));
}

main().then(() => process.exit(0), fail);
