import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhook } from './load.js';

/** True when `wrk` is installed (apt-get install wrk): a C load generator that outruns any server here. */
export const hasWrk = spawnSync('wrk', ['--version']).error === undefined;

/**
 * Drives `target` with wrk for `seconds`, `connections` at once, from core 1 when taskset exists.
 * Each run gets its own file of `count` pre-signed webhooks, so no request is a duplicate.
 */
export function wrkBlast(target: string, seconds: number, connections = 64, count = 400_000): { rps: number; requests: number; errors: number } {
  const file = join(tmpdir(), `parley-wrk-${process.pid}-${Date.now()}.txt`);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const { body, headers } = webhook((i % 1000) + 1);
    lines.push(`${headers['x-service-timestamp']} ${headers['x-service-signature']} ${body}`);
  }
  writeFileSync(file, lines.join('\n') + '\n');
  const pin = existsSync('/usr/bin/taskset') ? ['taskset', '-c', '1'] : [];
  const argv = [...pin, 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '-s', 'bench/webhooks.lua', `${target}/webhooks/agent`];
  const run = spawnSync(argv[0]!, argv.slice(1), { env: { ...process.env, PARLEY_WRK_FILE: file }, encoding: 'utf8' });
  spawnSync('rm', ['-f', file]);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(run.stdout)?.[1]);
  const total = Number(/(\d+) requests in/.exec(run.stdout)?.[1]);
  if (!Number.isFinite(rps)) throw new Error(`wrk failed: ${run.stderr || run.stdout}`);
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(run.stdout)?.[1] ?? 0);
  if (total > count) throw new Error(`wrk sent ${total} requests but only ${count} were unique; raise the count`);
  return { rps: rps * (1 - errors / Math.max(1, total)), requests: total - errors, errors };
}
