import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import type { Hono } from 'hono';
import { createApp } from './app.js';
import { assemble, type Assembled } from './assemble.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { AppEnv } from './context.js';
import { checkModelAvailable } from './chat/model-check.js';
import { createLogger, type Logger } from './logger.js';
import { closedLauncherNote } from './people/handoff.js';
import { withWebhookFastPath } from './routes/webhook-fast-path.js';
import type { Observer } from './ports/observer.js';

/** A running BFF: its address and a graceful `stop()`. */
export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  stop(): Promise<void>;
}

/** Something `start` closes on shutdown, after the server stopped taking requests. */
export interface Closable {
  close(): Promise<void>;
}

/** What a program built on the server adds to it (the demo: simulator, pages, inspector). */
export interface Extension {
  /** Sees every upstream call and webhook, besides the metrics. */
  observer?: Observer;
  /** Adds routes once the port is known, before any request is served; what it returns is closed on stop. */
  mount(app: Hono<AppEnv>, context: { config: Readonly<Config>; port: number; logger: Logger }): Promise<Closable | void>;
}

export interface StartOptions {
  extend?: (config: Readonly<Config>) => Extension | Promise<Extension>;
}

/** Where the service is reached when the simulator stands in for it (DEMO=true): this server, under this path. */
export const SIMULATOR_PATH = '/sim';

/** Reads the configuration, builds the adapters, listens. The only place that does these things. */
export async function start(env: Record<string, string | undefined> = process.env, options: StartOptions = {}): Promise<RunningServer> {
  const config = loadConfig(env);
  if (config.demo && !options.extend) throw new ConfigError(['DEMO=true runs from the demo entry (npm start, or node dist/server/demo/main.js), not the server alone']);
  const logger = createLogger(config.logLevel);
  const extension = await options.extend?.(config);
  const server = await listen(config);
  const port = (server.address() as AddressInfo).port;
  const serviceBaseUrl = config.upstreamBaseUrl ?? `http://127.0.0.1:${port}${SIMULATOR_PATH}`;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  const built = await assemble(config, { logger, serviceBaseUrl, observer: extension?.observer, ownOrigin: config.publicOrigin ?? url });
  if (!built.deps.widget) logger.warn('widget not built: /widget.js answers 404 until `npm run build:widget`');
  const launcherNote = closedLauncherNote(config);
  if (launcherNote) logger[config.supportHours ? 'info' : 'warn'](launcherNote);
  const app = createApp(built.deps);
  const added = (await extension?.mount(app, { config, port, logger })) ?? undefined;
  // The webhook, called at the service's rate, is answered on Node's request before Hono: the same
  // checks and answers at a fraction of the cost (routes/webhook-fast-path.ts, docs/benchmarks.md).
  server.on('request', withWebhookFastPath(built.deps, getRequestListener(app.fetch)));
  const stop = stopper(server, built, added, logger);

  // Model mode starts only when the region lists the model (checked once a demo gateway answers too).
  if (built.gateway) {
    try {
      await checkModelAvailable(built.gateway);
    } catch (err) {
      await stop();
      throw err;
    }
  }

  logger.info('listening', { url, port, mode: config.chatMode, simulator: config.simulator, store: config.redisClusterNodes ? 'redis-cluster' : config.redisUrl ? 'redis' : 'memory' });
  return { url, port, server, stop };
}

function listen(config: Readonly<Config>): Promise<Server> {
  // Stalled clients are cut: Node checks these limits every `connectionsCheckingInterval`
  // (30 s by default, too coarse for a 10 s headers limit). Event streams are not affected: their
  // request is complete once its headers are in.
  const server = createServer({
    requestTimeout: config.requestTimeoutMs,
    headersTimeout: config.headersTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve(server));
  });
}

/** A graceful stop, run once however often it is asked for: no new requests, streams told, then everything closed. */
function stopper(server: Server, built: Assembled, added: Closable | undefined, logger: Logger): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= (async () => {
      logger.info('shutting down');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      built.deps.heartbeat.closeAll(); // browsers reconnect elsewhere at once
      // Keep-alive connections that finish their request after this point would otherwise wait
      // for the keep-alive timeout; close each as soon as it falls idle.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      await Promise.race([closed, new Promise((r) => setTimeout(r, 10_000).unref())]);
      clearInterval(sweep);
      server.closeAllConnections();
      await built.close();
      await added?.close();
    })());
}

/** Entry point: starts the BFF (or what `begin` starts on it) and stops it gracefully on SIGTERM/SIGINT. */
export async function main(begin: () => Promise<RunningServer> = () => start(), logger: Logger = createLogger('info')): Promise<void> {
  let running: RunningServer;
  try {
    running = await begin();
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) process.stderr.write(`Configuration error: ${line}\n`);
      process.exit(1);
    }
    logger.error('start-up failed', { error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  }
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      running.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void main();
