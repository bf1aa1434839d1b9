import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhook } from './load.js';

/** True when `wrk` is installed (apt-get install wrk): a C load generator that outruns any server here. */
export const hasWrk = spawnSync('wrk', ['--version']).error === undefined;

let files = 0;

/** A file of `count` pre-signed, unique webhooks for bench/webhooks.lua (one "timestamp signature event-id body" line each). */
function webhookFile(count: number): string {
  const file = join(tmpdir(), `parley-wrk-${process.pid}-${Date.now()}-${++files}.txt`);
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const { body, headers } = webhook((i % 1000) + 1);
    lines.push(`${headers['x-service-timestamp']} ${headers['x-service-signature']} ${headers['x-service-event-id']} ${body}`);
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

const pin = existsSync('/usr/bin/taskset') ? ['taskset', '-c', '1'] : [];
const wrkArgs = (target: string, seconds: number, connections: number) => [...pin, 'wrk', '-t1', `-c${connections}`, `-d${seconds}s`, '-s', 'bench/webhooks.lua', `${target}/webhooks/agent`];

/** What wrk printed, as verified webhooks: requests/s and requests that got a 2xx. */
function wrkResult(stdout: string, stderr: string, count: number): { rps: number; requests: number; errors: number } {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1]);
  const total = Number(/(\d+) requests in/.exec(stdout)?.[1]);
  if (!Number.isFinite(rps)) throw new Error(`wrk failed: ${stderr || stdout}`);
  const errors = Number(/Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1] ?? 0);
  if (total > count) throw new Error(`wrk sent ${total} requests but only ${count} were unique; raise the count`);
  return { rps: rps * (1 - errors / Math.max(1, total)), requests: total - errors, errors };
}

/**
 * Drives `target` with wrk for `seconds`, `connections` at once, from core 1 when taskset exists.
 * Each run gets its own file of `count` pre-signed webhooks, so no request is a duplicate.
 */
export function wrkBlast(target: string, seconds: number, connections = 64, count = 400_000): { rps: number; requests: number; errors: number } {
  const file = webhookFile(count);
  const argv = wrkArgs(target, seconds, connections);
  const run = spawnSync(argv[0]!, argv.slice(1), { env: { ...process.env, PARLEY_WRK_FILE: file }, encoding: 'utf8' });
  rmSync(file, { force: true });
  return wrkResult(run.stdout, run.stderr, count);
}

/**
 * Drives every target at once, one wrk each (all on core 1), for `seconds`: for servers that
 * share a core, so that whatever else the machine does hits them all at the same moments.
 * The webhook files are written before any wrk starts.
 */
export async function wrkTogether(targets: string[], seconds: number, connections = 32, count = 200_000): Promise<Array<{ rps: number; requests: number; errors: number }>> {
  const prepared = targets.map(() => webhookFile(count));
  try {
    return await Promise.all(
      targets.map(
        (target, i) =>
          new Promise<{ rps: number; requests: number; errors: number }>((resolve, reject) => {
            const argv = wrkArgs(target, seconds, connections);
            const child = spawn(argv[0]!, argv.slice(1), { env: { ...process.env, PARLEY_WRK_FILE: prepared[i]! } });
            let stdout = '';
            let stderr = '';
            child.stdout.on('data', (d: Buffer) => (stdout += d));
            child.stderr.on('data', (d: Buffer) => (stderr += d));
            child.on('error', reject);
            child.on('close', () => {
              try {
                resolve(wrkResult(stdout, stderr, count));
              } catch (err) {
                reject(err);
              }
            });
          }),
      ),
    );
  } finally {
    for (const file of prepared) rmSync(file, { force: true });
  }
}
