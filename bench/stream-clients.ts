// The client side of the stream benchmarks: event streams held by child processes
// (bench/stream-client.mjs), at most STREAMS_PER_CLIENT_PROCESS each, so the client side needs
// no more open files in any process than its limit allows however many streams there are.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TokenService } from '../bff/src/lib/tokens.js';
import { STREAMS_PER_CLIENT_PROCESS } from './limits.js';

/**
 * The loopback source address of stream `i`: one address has about 28,000 ports to connect from
 * (net.ipv4.ip_local_port_range), so the first 25,000 come from 127.0.0.1 (unbound, the kernel's
 * own choice) and the rest 5,000 each from 127.0.0.2, 127.0.0.3, … (bound before connecting: the
 * kernel's search for a free port to bind to slows as one address's ports fill).
 */
const sourceAddress = (i: number) => (i < 25_000 ? '127.0.0.1' : `127.0.0.${2 + Math.floor((i - 25_000) / 5_000)}`);

/** The conversation stream `i` follows: one conversation per stream. */
export const conversationOf = (i: number) => 500_000 + i;

/** Called for every benchmark message (`fan-<n>`) heard on stream `i`, `at` in process.hrtime ms. */
export type OnFrame = (i: number, n: number, at: number) => void;

type Reply = { type: 'ready' } | { type: 'opened' | 'closed'; id: number } | { type: 'failed'; id: number; message: string } | { type: 'dropped'; i: number } | { type: 'frames'; frames: number[] };

/** One client process and the requests it has not answered yet. */
class ClientProcess {
  readonly child: ChildProcess;
  private readonly pending = new Map<number, { resolve(): void; reject(err: Error): void }>();
  private next = 0;
  readonly ready: Promise<void>;

  constructor(onFrame: OnFrame | undefined, onDrop: (i: number) => void) {
    this.child = fork(fileURLToPath(new URL('./stream-client.mjs', import.meta.url)), [], { execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.ready = new Promise((resolve, reject) => {
      this.child.once('exit', (code, signal) => {
        const err = new Error(`a stream client process exited (${signal ?? code})`);
        reject(err);
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      });
      this.child.on('message', (m: Reply) => {
        if (m.type === 'ready') resolve();
        else if (m.type === 'frames') {
          for (let k = 0; k < m.frames.length; k += 3) onFrame?.(m.frames[k]!, m.frames[k + 1]!, m.frames[k + 2]!);
        } else if (m.type === 'dropped') onDrop(m.i);
        else {
          const p = this.pending.get(m.id);
          this.pending.delete(m.id);
          if (m.type === 'failed') p?.reject(new Error(m.message));
          else p?.resolve();
        }
      });
    });
  }

  request(message: Record<string, unknown>): Promise<void> {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...message, id });
    });
  }
}

/**
 * Streams `0 … count-1` to `servers` (stream i to server i mod n, from `sourceAddress(i)`),
 * held by as many client processes as they need. Any stream that drops after opening is counted
 * in `dropped`. `stop()` ends the processes (the caller registers it for cleanup on failure).
 */
export class StreamClients {
  private readonly processes: ClientProcess[] = [];
  dropped = 0;

  constructor(
    private readonly tokens: TokenService,
    private readonly onFrame?: OnFrame,
  ) {}

  /** Opens streams `from … to-1`, resolving once every one has its 200 head. */
  async open(servers: Array<{ port: number }>, from: number, to: number): Promise<void> {
    const byProcess = new Map<number, Array<{ i: number; token: string; from: string; port: number }>>();
    for (let i = from; i < to; i++) {
      const { token } = await this.tokens.issue(String(conversationOf(i)), undefined);
      const p = Math.floor(i / STREAMS_PER_CLIENT_PROCESS);
      if (!byProcess.has(p)) byProcess.set(p, []);
      byProcess.get(p)!.push({ i, token, from: sourceAddress(i), port: servers[i % servers.length]!.port });
    }
    await Promise.all(
      [...byProcess].map(async ([p, streams]) => {
        while (this.processes.length <= p) this.processes.push(new ClientProcess(this.onFrame, () => this.dropped++));
        const client = this.processes[p]!;
        await client.ready;
        await client.request({ type: 'open', streams });
      }),
    );
  }

  /** Closes every stream (the processes stay for more). */
  async closeAll(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.request({ type: 'close' })));
  }

  /** Ends the client processes (and so their streams). */
  stop(): void {
    for (const p of this.processes) p.child.kill('SIGKILL');
  }
}
