// How many event streams this machine's open-file limits let the bench hold: a stream is a socket
// in the BFF (one file each, all in one process) and a socket on the client side (spread over
// child processes, bench/stream-clients.ts, so the client side is never the bound).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** This process's open-file limits (Node raises its soft limit to the hard one at start). */
export function fileLimits(): { soft: number; hard: number } {
  const line = readFileSync('/proc/self/limits', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  const [soft, hard] = (line?.match(/(\d+|unlimited)/g) ?? []).map((v) => (v === 'unlimited' ? Infinity : Number(v)));
  return { soft: soft ?? Infinity, hard: hard ?? Infinity };
}

/** True when a shell started from here may set its limit to `files` (root with CAP_SYS_RESOURCE may pass the hard limit). */
export function canRaiseTo(files: number): boolean {
  return spawnSync('sh', ['-c', `ulimit -n ${files}`], { stdio: 'ignore' }).status === 0;
}

/** Files a process holds open now (/proc/<pid>/fd). */
export function openFiles(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Streams one client process holds at most: under any limit, and spread so no one process is the bottleneck. */
export const STREAMS_PER_CLIENT_PROCESS = 10_000;

/**
 * Files a BFF keeps beside its streams besides those it holds at start: the webhook sender's
 * keep-alive connections (64) and room for what it opens while running (a Redis connection, a
 * spent-token file, a DNS lookup).
 */
const BFF_SPARE_FILES = 64 + 36;

/** What the limits allow, worked out once from a BFF started for the purpose. */
export class StreamPlan {
  readonly soft: number;
  readonly hard: number;
  /** Streams one BFF process can hold: its file limit less the files it holds at start and the spare. */
  readonly bffMax: number;

  /** `bffOwnFiles`: the files a freshly started BFF holds (/proc/<pid>/fd), about 20. */
  constructor(readonly bffOwnFiles: number) {
    ({ soft: this.soft, hard: this.hard } = fileLimits());
    this.bffMax = Math.max(0, Math.min(this.soft, this.hard) - bffOwnFiles - BFF_SPARE_FILES);
  }

  /** Files a BFF holding `count` streams needs. */
  filesFor(count: number): number {
    return count + this.bffOwnFiles + BFF_SPARE_FILES;
  }

  /** The plan, printed before any stream opens. */
  describe(requested: number[]): string {
    const largest = Math.max(...requested);
    const clients = Math.ceil(Math.min(largest, this.bffMax) / STREAMS_PER_CLIENT_PROCESS);
    return [
      `Open files: limit ${this.soft} (hard ${this.hard}, \`ulimit -Hn\`) per process.`,
      `  BFF process: one file per stream plus ${this.bffOwnFiles} of its own and ${BFF_SPARE_FILES} spare, so at most ${this.bffMax.toLocaleString('en')} streams on one instance.`,
      `  Client side: up to ${STREAMS_PER_CLIENT_PROCESS.toLocaleString('en')} streams per child process, each under its own limit (${clients} process${clients === 1 ? '' : 'es'} for ${Math.min(largest, this.bffMax).toLocaleString('en')}), so it is not the bound.`,
    ].join('\n');
  }

  /** Why `count` streams cannot be held on one BFF here, or undefined when they can. */
  refusal(count: number): string | undefined {
    if (count <= this.bffMax) return undefined;
    const needed = this.filesFor(count);
    const ask = Math.ceil(needed / 10_000) * 10_000;
    return (
      `${count.toLocaleString('en')} streams on one BFF need ${needed.toLocaleString('en')} open files in its process ` +
      `and the limit here is ${Math.min(this.soft, this.hard)} (hard limit \`ulimit -Hn\`: ${this.hard}); ` +
      `raising it takes CAP_SYS_RESOURCE: as root \`ulimit -n ${ask}\` before \`npm run bench\`, ` +
      `LimitNOFILE=${ask} in a systemd unit, or \`docker run --ulimit nofile=${ask}\` for a container`
    );
  }
}
