import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';

/** A redis-server process started for tests, on a loopback port of its own. */
export interface TestRedis {
  url: string;
  port: number;
  /** The running process's pid (undefined while stopped). */
  readonly pid: number | undefined;
  /** Kills the process (SIGKILL: a crash, not a clean shutdown) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts a fresh, empty redis-server on the same port (after `stop`). */
  restart(): Promise<void>;
}

const BIN = process.env.REDIS_SERVER_BIN ?? 'redis-server';

/** True when the redis tests are switched off on purpose. */
export const skipRedisTests = process.env.SKIP_REDIS_TESTS === '1';

/**
 * Throws a clear error unless `redis-server` can be run. The redis suite must fail, not skip,
 * on a machine without it (unless SKIP_REDIS_TESTS=1).
 */
export function assertRedisServerInstalled(): void {
  const probe = spawnSync(BIN, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new Error(
      `redis-server not found (tried "${BIN}"): install it (e.g. apt-get install redis-server), ` +
        'set REDIS_SERVER_BIN, or set SKIP_REDIS_TESTS=1 to skip the Redis tests',
    );
  }
}

/** Spawns `redis-server` without persistence on a free 127.0.0.1 port and resolves once it answers PING. */
export async function startRedisServer(): Promise<TestRedis> {
  assertRedisServerInstalled();
  let port = await freePort();
  let child: ChildProcess | undefined;
  for (let attempt = 1; !child; attempt++) {
    try {
      child = await spawnOn(port);
    } catch (err) {
      // Another process may have taken the port between probing and binding.
      if (attempt >= 3) throw err;
      port = await freePort();
    }
  }
  let current: ChildProcess | undefined = child;
  const killOnExit = () => current?.kill('SIGKILL');
  process.once('exit', killOnExit);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get pid() {
      return current?.pid;
    },
    async stop() {
      const proc = current;
      current = undefined;
      if (proc) await kill(proc);
    },
    async restart() {
      if (current) await kill(current);
      current = await spawnOn(port);
    },
  };
}

async function spawnOn(port: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', tmpdir(), '--loglevel', 'warning'];
  const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await waitForPing(port, child);
  return child;
}

/** Resolves once the redis-server `child` answers PING on `port`; kills it and throws after 10 s. */
export async function waitForPing(port: number, child: ChildProcess): Promise<void> {
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited (code ${child.exitCode}): ${output.join('')}`);
    if (await answersPing(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await kill(child);
  throw new Error(`redis-server on port ${port} did not answer PING within 10 s: ${output.join('')}`);
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
    });
  });
}

/** A TCP port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** SIGKILLs `child` (a crash, not a clean shutdown) and waits for it to exit. */
export function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
