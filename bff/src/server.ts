import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import { createApp } from './app.js';
import { ConfigError, isSimulatorEnv, loadConfig, type Config } from './config.js';
import type { AppDeps } from './context.js';
import { FeedbackWebhook } from './adapters/http-feedback.js';
import { HttpFlowClient } from './adapters/http-flows.js';
import { HttpGateway } from './adapters/http-gateway.js';
import { HttpAgentUpstream } from './adapters/http-upstream.js';
import { MemoryOnceStore, MemoryRateLimiter } from './adapters/memory-limits.js';
import { MemorySignalBus } from './adapters/memory-signals.js';
import { MemoryEventStore } from './adapters/memory-store.js';
import { MemoryUserDirectory } from './adapters/memory-users.js';
import { AcceptedWrites } from './chat/accepted-writes.js';
import { AgentChat } from './chat/agent-chat.js';
import { checkModelAvailable } from './chat/model-check.js';
import { ModelChat } from './chat/model-chat.js';
import { createLogger, type Logger } from './logger.js';
import { Metrics } from './lib/metrics.js';
import { combineObservers } from './lib/observers.js';
import { Heartbeat } from './lib/sse.js';
import { IdentityVerifier } from './lib/identity.js';
import { TokenService } from './lib/tokens.js';
import { loadWidgetAsset } from './lib/widget-asset.js';
import { WebhookVerifier } from './lib/webhook-verify.js';
import type { EventStore, RetentionOptions } from './ports/event-store.js';
import type { OnceStore } from './ports/once-store.js';
import type { RateLimiter } from './ports/rate-limiter.js';
import type { SignalBus } from './ports/signals.js';
import type { UserDirectory } from './ports/user-directory.js';

/** A running BFF: its address and a graceful `stop()`. */
export interface RunningServer {
  url: string;
  port: number;
  server: Server;
  stop(): Promise<void>;
}

interface Storage {
  store: EventStore;
  rateLimiter: RateLimiter;
  onceStore: OnceStore;
  users: UserDirectory;
  signals: SignalBus;
  close(): Promise<void>;
}

/** Reads the configuration, builds the adapters, listens. The only place that does these things. */
export async function start(env: Record<string, string | undefined> = process.env): Promise<RunningServer> {
  const config = loadConfig(withDemoDefaults(env));
  const logger = createLogger(config.logLevel);
  const storage = await openStorage(config);
  const heartbeat = new Heartbeat(config.heartbeatSec * 1000);
  const inspector = config.simulator ? (await import('../../demo/inspector.js')).createInspector() : undefined;
  const metrics = new Metrics();
  const observer = combineObservers(metrics, inspector?.observer);

  // Stalled clients are cut: Node checks these limits every `connectionsCheckingInterval`
  // (30 s by default, too coarse for a 10 s headers limit). Event streams are not affected: their
  // request is complete once its headers are in.
  const server = createServer({
    requestTimeout: config.requestTimeoutMs,
    headersTimeout: config.headersTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const loopback = `http://127.0.0.1:${port}`;
  const upstreamBaseUrl = config.upstreamBaseUrl ?? `${loopback}/sim`;

  const upstream = new HttpAgentUpstream({
    baseUrl: upstreamBaseUrl,
    accessToken: config.upstreamAccessToken,
    botKey: config.agentBotKey,
    testChat: config.testChat,
    devWebhookUrl: config.devWebhookUrl,
    policy: { retries: config.upstreamRetries, timeoutMs: config.upstreamTimeoutMs },
    observer,
  });
  // Model mode (area A). In the demo the gateway simulator below answers, with a key made up here.
  const gatewayKey = config.gatewayApiKey || randomBytes(24).toString('base64url');
  const gateway =
    config.chatMode === 'model'
      ? new HttpGateway({
          baseUrl: config.gatewayBaseUrl ?? upstreamBaseUrl,
          region: config.gatewayRegion,
          apiKey: gatewayKey,
          model: config.gatewayModel,
          policy: { retries: config.upstreamRetries, timeoutMs: config.upstreamTimeoutMs },
          observer,
        })
      : undefined;
  const acceptedWrites = new AcceptedWrites({ logger });
  const chat = gateway
    ? new ModelChat(gateway, storage.store, { systemPrompt: config.gatewaySystemPrompt, maxHistory: config.gatewayMaxHistory, maxTokens: config.gatewayMaxTokens, signals: storage.signals, logger })
    : new AgentChat(upstream, storage.store, { operatorEmail: config.escalationOperatorEmail, writes: acceptedWrites });
  if (chat instanceof ModelChat) await chat.listen();
  const feedback = config.feedbackWebhookUrl
    ? new FeedbackWebhook({ url: config.feedbackWebhookUrl, secret: config.feedbackWebhookSecret!, logger })
    : undefined;
  const deps: AppDeps = {
    config,
    writes: acceptedWrites,
    store: storage.store,
    rateLimiter: storage.rateLimiter,
    chat,
    tokens: new TokenService({
      secret: config.sessionJwtSecret,
      accessTtlSec: config.sessionTokenTtlSec,
      refreshTtlSec: config.refreshTokenTtlSec,
      onceStore: storage.onceStore,
    }),
    users: storage.users,
    ...((config.identitySecret || config.identityJwksUrl) && {
      identity: new IdentityVerifier({ secret: config.identitySecret, jwks: config.identityJwksUrl, issuer: config.identityIssuer, userVariables: config.userVariables }),
    }),
    verifier: new WebhookVerifier({ secrets: config.webhookSecrets }),
    heartbeat,
    logger,
    observer,
    metrics,
    feedback,
    widget: loadWidgetAsset(),
    flows: new HttpFlowClient({ baseUrl: upstreamBaseUrl, policy: { retries: config.upstreamRetries, timeoutMs: config.upstreamTimeoutMs }, observer }),
  };
  if (!deps.widget) logger.warn('widget not built: /widget.js answers 404 until `npm run build:widget`');

  const app = createApp(deps);

  // Demo mode: the simulator and the demo pages share this port; the simulator is created
  // once the port is known, so its signed webhooks reach this very server over HTTP.
  let demo: { close(): Promise<void> } | undefined;
  if (config.simulator && inspector) {
    const { createSimulator } = await import('../../demo/simulator/index.js');
    const { createDemoRoutes } = await import('../../demo/routes.js');
    const publicOrigin = config.publicOrigin ?? `http://localhost:${port}`;
    const simulator = createSimulator({
      accessToken: config.upstreamAccessToken,
      botKey: config.agentBotKey,
      webhookSecret: config.webhookSecrets[0]!,
      webhookUrl: `${loopback}/webhooks/agent`,
      publicOrigin,
      // Demo-only knobs, used by tests to make the simulated agent fast and deterministic.
      ...(env.SIM_REPLY_DELAY_MS ? { replyDelayMs: Number(env.SIM_REPLY_DELAY_MS) } : {}),
      ...(env.SIM_DUPLICATE_RATE ? { duplicateRate: Number(env.SIM_DUPLICATE_RATE) } : {}),
    });
    // Areas A and C are simulated on the same base, ahead of the agent simulator's catch-all mount.
    const { createGatewaySimulator } = await import('../../demo/simulator/gateway.js');
    const { createFlowSimulator } = await import('../../demo/simulator/flows.js');
    app.route('/sim', createGatewaySimulator({ apiKey: gatewayKey }));
    app.route('/sim', createFlowSimulator({ tokens: config.flowTokens, postResult: (sessionId, text) => {
          // Through the simulator's dispatcher: signed, retried, sometimes duplicated, like any event.
          try {
            simulator.deliverMessage(sessionId, text);
          } catch (err) {
            logger.warn('flow result not delivered', { sessionId, error: String(err) });
          }
        } }));
    app.mount('/sim', (req, env) => simulator.app.fetch(req, env)); // env: Node's socket, for the reset fault
    app.route('/', inspector.app);
    app.route('/', createDemoRoutes({ inspector, simulator, publicOrigin, identitySecret: config.identitySecret, chatMode: config.chatMode }));
    demo = simulator;
  }
  server.on('request', getRequestListener(app.fetch));

  // Model mode starts only when the region lists the model (checked once the demo gateway answers).
  if (gateway) {
    await checkModelAvailable(gateway).catch(async (err: unknown) => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await demo?.close();
      await storage.close();
      throw err;
    });
  }

  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  logger.info('listening', { url, port, mode: config.chatMode, simulator: config.simulator, store: config.redisClusterNodes ? 'redis-cluster' : config.redisUrl ? 'redis' : 'memory' });

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      logger.info('shutting down');
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      heartbeat.closeAll(); // browsers reconnect elsewhere at once
      // Keep-alive connections that finish their request after this point would otherwise wait
      // for the keep-alive timeout; close each as soon as it falls idle.
      server.closeIdleConnections();
      const sweep = setInterval(() => server.closeIdleConnections(), 50);
      await Promise.race([closed, new Promise((r) => setTimeout(r, 10_000).unref())]);
      clearInterval(sweep);
      server.closeAllConnections();
      if (chat instanceof ModelChat) await chat.close();
      await feedback?.close();
      await acceptedWrites.close();
      await demo?.close();
      await storage.close();
    })());
  return { url, port, server, stop };
}

async function openStorage(config: Readonly<Config>): Promise<Storage> {
  const retention: RetentionOptions = {
    maxEvents: config.eventRetentionCount,
    maxAgeMs: config.eventRetentionSec * 1000,
    dedupTtlMs: config.dedupTtlSec * 1000,
  };
  const redis = config.redisClusterNodes ? { clusterNodes: config.redisClusterNodes } : config.redisUrl ? { url: config.redisUrl } : undefined;
  if (redis) {
    const { createRedisAdapters } = await import('./adapters/redis.js');
    return createRedisAdapters(redis, retention);
  }
  const store = new MemoryEventStore(retention);
  return { store, rateLimiter: new MemoryRateLimiter(), onceStore: new MemoryOnceStore(), users: new MemoryUserDirectory(), signals: new MemorySignalBus(), close: () => store.close() };
}

const AGENT_DEMO_GREETING = JSON.stringify({
  en: "Hi, I'm Juniper, Nimbus Outdoor's assistant. Ask about orders, returns or gear, or try “carousel”.",
  de: "Hallo, ich bin Juniper, die Assistentin von Nimbus Outdoor. Fragen Sie nach Bestellungen, Rücksendungen oder Ausrüstung, oder probieren Sie „carousel“.",
  fr: "Bonjour, je suis Juniper, l'assistante de Nimbus Outdoor. Posez vos questions sur les commandes, les retours ou l'équipement, ou essayez « carousel ».",
});
const MODEL_DEMO_GREETING = JSON.stringify({
  en: "Hi, I'm Juniper, Nimbus Outdoor's assistant. Ask me about orders, returns or gear.",
  de: "Hallo, ich bin Juniper, die Assistentin von Nimbus Outdoor. Fragen Sie mich nach Bestellungen, Rücksendungen oder Ausrüstung.",
  fr: "Bonjour, je suis Juniper, l'assistante de Nimbus Outdoor. Posez-moi vos questions sur les commandes, les retours ou l'équipement.",
});

/**
 * Demo mode only (no UPSTREAM_BASE_URL): turn on what the simulator can show — an upload flow,
 * escalation to a (simulated) operator — and dress the widget as the demo shop. Anything the
 * environment sets wins; production configuration never passes through here.
 */
function withDemoDefaults(env: Record<string, string | undefined>): Record<string, string | undefined> {
  if (!isSimulatorEnv(env)) return env;
  const demo: Record<string, string> = {
    ESCALATION_OPERATOR_EMAIL: 'operator@nimbus-outdoor.example',
    WIDGET_TITLE: 'Nimbus Outdoor',
    // Per language; model mode answers in prose only, so it does not suggest the badge keywords.
    WIDGET_GREETING: env.CHAT_MODE === 'model' ? MODEL_DEMO_GREETING : AGENT_DEMO_GREETING,
    WIDGET_ACCENT: '#1f5f3f',
    // The shop signs in its sample customers with identity tokens it mints itself (demo/routes.ts).
    IDENTITY_SECRET: randomBytes(32).toString('base64url'),
  };
  if (env.FLOW_TOKENS === undefined && env.UPLOAD_FLOW === undefined) {
    demo.FLOW_TOKENS = 'upload:demo-upload-token';
    demo.UPLOAD_FLOW = 'upload';
  }
  const merged: Record<string, string | undefined> = { ...env };
  for (const [key, value] of Object.entries(demo)) if (merged[key] === undefined) merged[key] = value;
  return merged;
}

/** Entry point: starts the BFF and stops it gracefully on SIGTERM/SIGINT. */
export async function main(logger: Logger = createLogger('info')): Promise<void> {
  let running: RunningServer;
  try {
    running = await start();
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
