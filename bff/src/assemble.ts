import { authorBookOf } from './people/authors.js';
import { ConfigError, type Config } from './config.js';
import type { AppDeps } from './context.js';
import { FeedbackWebhook } from './adapters/http-feedback.js';
import { HttpFlowClient } from './adapters/http-flows.js';
import { HttpGateway } from './adapters/http-gateway.js';
import { HttpAgentUpstream } from './adapters/http-upstream.js';
import { FileOnceStore } from './adapters/file-once-store.js';
import { MemoryOnceStore, MemoryRateLimiter, MemoryStartRecords } from './adapters/memory-limits.js';
import { MemorySignalBus } from './adapters/memory-signals.js';
import { MemoryEventStore } from './adapters/memory-store.js';
import { MemoryUserDirectory } from './adapters/memory-users.js';
import { MemoryEmailLedger } from './adapters/memory-email-ledger.js';
import { SmtpMailer } from './adapters/smtp-mailer.js';
import { Continuity } from './email/continuity.js';
import { LinkTokens } from './email/links.js';
import { AcceptedWrites } from './chat/accepted-writes.js';
import { AgentChat } from './chat/agent-chat.js';
import { ModelChat } from './chat/model-chat.js';
import type { Logger } from './logger.js';
import { IdentityVerifier } from './lib/identity.js';
import { Metrics } from './lib/metrics.js';
import { combineObservers } from './lib/observers.js';
import { Heartbeat } from './lib/sse.js';
import { TokenService } from './lib/tokens.js';
import { WebhookVerifier } from './lib/webhook-verify.js';
import { loadWidgetAsset } from './lib/widget-asset.js';
import type { ChatBackend } from './ports/chat-backend.js';
import type { EventStore, RetentionOptions } from './ports/event-store.js';
import type { Observer } from './ports/observer.js';
import type { OnceStore } from './ports/once-store.js';
import type { RateLimiter } from './ports/rate-limiter.js';
import type { SignalBus } from './ports/signals.js';
import type { StartRecords } from './ports/start-records.js';
import type { UserDirectory } from './ports/user-directory.js';
import type { EmailLedger } from './ports/email-ledger.js';

interface Storage {
  store: EventStore;
  rateLimiter: RateLimiter;
  onceStore: OnceStore;
  starts: StartRecords;
  users: UserDirectory;
  signals: SignalBus;
  emailLedger: EmailLedger;
  close(): Promise<void>;
}

/** The app's dependencies, built from the configuration, and how to release them. */
export interface Assembled {
  deps: AppDeps;
  /** The model gateway (model mode), for the start-up check that it lists the model. */
  gateway?: HttpGateway;
  /** Ends what was built, last-built first: chat, feedback, owed writes, storage. */
  close(): Promise<void>;
}

export interface AssembleOptions {
  logger: Logger;
  /** Where the agent service and flows are reached (the simulator's path in the demo). */
  serviceBaseUrl: string;
  /** Sees every upstream call and webhook besides the metrics (the demo's inspector). */
  observer?: Observer;
  /** Where browsers reach this server (PUBLIC_ORIGIN, else its own address): emails' unsubscribe links point here. */
  ownOrigin: string;
}

/** Builds storage, upstream clients and the chat backend: everything the app reads from. */
export async function assemble(config: Readonly<Config>, options: AssembleOptions): Promise<Assembled> {
  const { logger, serviceBaseUrl } = options;
  const storage = await openStorage(config, logger);
  const metrics = new Metrics();
  const observer = combineObservers(metrics, options.observer);
  const policy = { retries: config.upstreamRetries, timeoutMs: config.upstreamTimeoutMs };
  const writes = new AcceptedWrites({ logger });
  const gateway =
    config.chatMode === 'model'
      ? new HttpGateway({ baseUrl: config.gatewayBaseUrl ?? serviceBaseUrl, region: config.gatewayRegion, apiKey: config.gatewayApiKey, model: config.gatewayModel, policy, observer })
      : undefined;
  const chat = gateway ? await modelChat(config, gateway, storage, logger) : agentChat(config, serviceBaseUrl, storage, writes, observer, logger);
  const feedback = config.feedbackWebhookUrl
    ? new FeedbackWebhook({ url: config.feedbackWebhookUrl, secret: config.feedbackWebhookSecret!, concurrency: config.feedbackConcurrency, logger, observer })
    : undefined;
  const identity =
    config.identitySecret || config.identityJwksUrl
      ? new IdentityVerifier({ secret: config.identitySecret, jwks: config.identityJwksUrl, issuer: config.identityIssuer, userVariables: config.userVariables })
      : undefined;
  const tokens = new TokenService({
    secret: config.sessionJwtSecret,
    accessTtlSec: config.sessionTokenTtlSec,
    refreshTtlSec: config.refreshTokenTtlSec,
    streamReconnectSec: config.streamReconnectSec,
    onceStore: storage.onceStore,
  });
  const email = emailOf(config, options.ownOrigin, storage, logger, observer);
  const deps: AppDeps = {
    config,
    store: storage.store,
    rateLimiter: storage.rateLimiter,
    onceStore: storage.onceStore,
    starts: storage.starts,
    users: storage.users,
    chat,
    tokens,
    ...(identity && { identity }),
    verifier: new WebhookVerifier({ secrets: config.webhookSecrets }),
    heartbeat: new Heartbeat(config.heartbeatSec * 1000),
    logger,
    observer,
    metrics,
    feedback,
    writes,
    widget: loadWidgetAsset(),
    flows: new HttpFlowClient({ baseUrl: serviceBaseUrl, policy, observer }),
    ...email,
  };
  email.continuity?.start();
  const close = async () => {
    await email.continuity?.close();
    await chat.close();
    await feedback?.close();
    await writes.close();
    await storage.close();
  };
  return { deps, gateway, close };
}

/** Emails to visitors who left (SMTP_URL): nothing when email is off. */
function emailOf(config: Readonly<Config>, ownOrigin: string, storage: Storage, logger: Logger, observer: Observer): { continuity?: Continuity; links?: LinkTokens } {
  if (config.smtpUrl === undefined) return {};
  const links = new LinkTokens(config.sessionJwtSecret, config.resumeLinkTtlSec);
  const continuity = new Continuity({
    config,
    ownOrigin,
    ledger: storage.emailLedger,
    store: storage.store,
    mailer: new SmtpMailer(config.smtpUrl),
    links,
    logger,
    onOutcome: (outcome) => observer.email?.(outcome),
  });
  return { continuity, links };
}

async function modelChat(config: Readonly<Config>, gateway: HttpGateway, storage: Storage, logger: Logger): Promise<ChatBackend> {
  const chat = new ModelChat(gateway, storage.store, {
    systemPrompt: config.gatewaySystemPrompt,
    maxHistory: config.gatewayMaxHistory,
    maxTokens: config.gatewayMaxTokens,
    signals: storage.signals,
    logger,
  });
  await chat.listen(); // stop requests from other instances
  return chat;
}

function agentChat(config: Readonly<Config>, baseUrl: string, storage: Storage, writes: AcceptedWrites, observer: Observer, logger: Logger): ChatBackend {
  const upstream = new HttpAgentUpstream({
    baseUrl,
    accessToken: config.upstreamAccessToken,
    botKey: config.agentBotKey,
    testChat: config.testChat,
    devWebhookUrl: config.devWebhookUrl,
    policy: { retries: config.upstreamRetries, timeoutMs: config.upstreamTimeoutMs },
    observer,
  });
  return new AgentChat(upstream, storage.store, {
    operatorEmail: config.escalationOperatorEmail,
    writes,
    authors: authorBookOf(config),
    localeVariable: config.localeVariable,
    logger,
  });
}

async function openStorage(config: Readonly<Config>, logger: Logger): Promise<Storage> {
  const retention: RetentionOptions = {
    maxEvents: config.eventRetentionCount,
    maxAgeMs: config.eventRetentionSec * 1000,
    dedupTtlMs: config.dedupTtlSec * 1000,
  };
  const redis = config.redisClusterNodes ? { clusterNodes: config.redisClusterNodes } : config.redisUrl ? { url: config.redisUrl } : undefined;
  if (redis) {
    const { createRedisAdapters } = await import('./adapters/redis.js');
    return createRedisAdapters(redis, retention, {
      onConnectionChange: ({ up, connection }) =>
        up ? logger.info('Redis connection back', { connection }) : logger.warn('Redis connection lost; what needs it answers 503 until it is back', { connection }),
    });
  }
  // Ids that only grow across restarts: a client's Last-Event-ID from before never hides new events.
  const store = new MemoryEventStore(retention, { timeBasedIds: true });
  // Spent refresh tokens stay spent across a restart (the file); the rest of memory mode starts empty.
  const onceStore = config.spentTokensFile ? await spentTokenStore(config, config.spentTokensFile, logger) : new MemoryOnceStore();
  const close = async () => {
    await store.close();
    if (onceStore instanceof FileOnceStore) await onceStore.close();
  };
  return { store, rateLimiter: new MemoryRateLimiter(), onceStore, starts: new MemoryStartRecords(), users: new MemoryUserDirectory(), signals: new MemorySignalBus(), emailLedger: new MemoryEmailLedger(), close };
}

/**
 * The file of spent refresh tokens. The default one (in the temporary folder) may not be
 * writable, as in a container with a read-only root: the server then starts anyway, keeps them
 * in memory only and says so once. A file chosen with SPENT_TOKENS_FILE must work.
 */
async function spentTokenStore(config: Readonly<Config>, path: string, logger: Logger): Promise<OnceStore> {
  try {
    return await FileOnceStore.open(path);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? String(err);
    if (config.spentTokensFileChosen) throw new ConfigError([`SPENT_TOKENS_FILE cannot be written (${reason}): name a writable file`]);
    logger.warn('spent refresh tokens kept in memory only: a restart forgets them; set SPENT_TOKENS_FILE to a writable file', { file: path, reason });
    return new MemoryOnceStore();
  }
}
