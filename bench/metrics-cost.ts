// `npx tsx bench/metrics-cost.ts`: what counting one webhook costs in /metrics, ours against the
// same counter and histogram in prom-client, alternating, a million calls a round (pinned to
// core 0 when taskset exists). The figure behind keeping our own counters (design-choices.md).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Counter, Histogram, Registry } from 'prom-client';
import { Metrics } from '../bff/src/lib/metrics.js';

if (existsSync('/usr/bin/taskset')) spawnSync('taskset', ['-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });

/** prom-client doing what `Metrics.webhook` does. */
function promClient(): { webhook(o: { outcome: string; durationMs: number }): void } {
  const registers = [new Registry()];
  const total = new Counter({ name: 'parley_webhooks_total', help: 'h', labelNames: ['outcome'], registers });
  const buckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  const latency = new Histogram({ name: 'parley_webhook_duration_seconds', help: 'h', buckets, registers });
  return {
    webhook(o) {
      total.inc({ outcome: o.outcome });
      latency.observe(o.durationMs / 1000);
    },
  };
}

const outcomes = ['stored', 'stored', 'stored', 'duplicate'];
/** µs per call over a million calls. */
function round(m: { webhook(o: { outcome: string; durationMs: number }): void }): number {
  const n = 1_000_000;
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) m.webhook({ outcome: outcomes[i & 3]!, durationMs: (i % 50) / 10 });
  return Number(process.hrtime.bigint() - start) / n / 1000;
}

const ours: number[] = [];
const theirs: number[] = [];
for (let i = 0; i < 7; i++) {
  ours.push(round(new Metrics()));
  theirs.push(round(promClient()));
}
const show = (xs: number[]) => `${[...xs].sort((a, b) => a - b)[3]!.toFixed(2)} µs (rounds ${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
console.log(`one webhook counted, ours:        ${show(ours)}`);
console.log(`one webhook counted, prom-client: ${show(theirs)}`);
