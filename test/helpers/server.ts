import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { wantsDemo } from '../../bff/src/config.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** A BFF process started for a test. */
export interface SpawnedServer {
  url: string;
  port: number;
  process: ChildProcess;
  /** Lines the process printed (stdout and stderr), for assertions and debugging. */
  output: string[];
  /** SIGTERM, then waits for exit (SIGKILL after 10 s). */
  stop(): Promise<void>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Spawns the BFF from source (tsx) on a free loopback port and resolves once it listens.
 * With no `UPSTREAM_BASE_URL` in `env` it runs the demo (demo/main.ts) with the built-in simulator.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: {
    timeoutMs?: number;
    /** e.g. ['taskset', '-c', '0'] to pin the server to a core */
    prefix?: string[];
    /** Run the compiled server (`dist/`) instead of the sources through tsx. */
    compiled?: boolean;
    /** Flags for node itself, e.g. ['--cpu-prof'] (some are not allowed in NODE_OPTIONS). */
    nodeArgs?: string[];
    /** Another checkout to run (bench/builds.ts compares two builds); this one by default. */
    root?: string;
  } = {},
): Promise<SpawnedServer> {
  const childEnv = { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env };
  // The entry `npm start` would pick: the demo when nothing real is configured (or DEMO=true).
  const demo = wantsDemo(childEnv);
  const entry = options.compiled
    ? [demo ? 'dist/server/demo/main.js' : 'dist/server/bff/src/server.js']
    : ['--import', 'tsx', demo ? 'demo/main.ts' : 'bff/src/server.ts'];
  const argv = [...(options.prefix ?? []), process.execPath, ...(options.nodeArgs ?? []), ...entry];
  const child = spawn(argv[0]!, argv.slice(1), {
    cwd: options.root ?? ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.join('\n')}`)), options.timeoutMs ?? 30_000);
    const onLine = (line: string) => {
      output.push(line);
      if (!line.includes('"msg":"listening"')) return;
      clearTimeout(timer);
      resolve((JSON.parse(line) as { port: number }).port);
    };
    for (const stream of [child.stdout!, child.stderr!]) {
      let buf = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buf += chunk;
        let i;
        while ((i = buf.indexOf('\n')) >= 0) {
          onLine(buf.slice(0, i));
          buf = buf.slice(i + 1);
        }
      });
    }
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output.join('\n')}`));
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    process: child,
    output,
    kill: (signal = 'SIGKILL') => void child.kill(signal),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(force);
    },
  };
}
