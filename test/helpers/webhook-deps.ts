import type { AppDeps } from '../../bff/src/context.js';
import { loadConfig } from '../../bff/src/config.js';
import { MemoryOnceStore, MemoryRateLimiter, MemoryStartRecords } from '../../bff/src/adapters/memory-limits.js';
import { MemoryUserDirectory } from '../../bff/src/adapters/memory-users.js';
import { StoreUnavailableError } from '../../bff/src/errors.js';
import { silentLogger, type Logger } from '../../bff/src/logger.js';
import { Heartbeat } from '../../bff/src/lib/sse.js';
import { TokenService } from '../../bff/src/lib/tokens.js';
import { WebhookVerifier } from '../../bff/src/lib/webhook-verify.js';
import type { EventStore } from '../../bff/src/ports/event-store.js';
import type { WebhookObservation } from '../../bff/src/ports/observer.js';

/** What a BFF needs to take webhooks signed with `secret` into `store`; each observation lands in `observations`. */
export function webhookDeps(options: {
  secret: string;
  store: EventStore;
  observations?: WebhookObservation[];
  logger?: Logger;
  logLevel?: string;
  /** More variables for the configuration. */
  env?: Record<string, string>;
  now?: () => number;
}): AppDeps {
  const config = loadConfig({ DEMO: 'true', WEBHOOK_SECRET: options.secret, ...(options.logLevel && { LOG_LEVEL: options.logLevel }), ...options.env });
  const observations = options.observations ?? [];
  return {
    config,
    store: options.store,
    rateLimiter: new MemoryRateLimiter(),
    onceStore: new MemoryOnceStore(),
    starts: new MemoryStartRecords(),
    chat: {} as AppDeps['chat'], // webhooks never reach the chat backend
    tokens: new TokenService({ secret: config.sessionJwtSecret, accessTtlSec: 900, refreshTtlSec: 3600, onceStore: new MemoryOnceStore() }),
    users: new MemoryUserDirectory(),
    verifier: new WebhookVerifier({ secrets: [options.secret] }),
    heartbeat: new Heartbeat(60_000),
    logger: options.logger ?? silentLogger,
    observer: { webhook: (o) => observations.push(o) },
    ...(options.now && { now: options.now }),
  };
}

/** `memory` behind a switch: while `down.now` is true, appends and pings fail as an unreachable store's do. */
export function storeThatFails(memory: EventStore): { store: EventStore; down: { now: boolean } } {
  const down = { now: false };
  const store: EventStore = {
    append: (...args) => (down.now ? Promise.reject(new StoreUnavailableError()) : memory.append(...args)),
    read: (...args) => memory.read(...args),
    lastId: (id) => memory.lastId(id),
    rememberAuthor: (...args) => memory.rememberAuthor(...args),
    authorsOf: (id) => memory.authorsOf(id),
    subscribe: (...args) => memory.subscribe(...args),
    ping: () => (down.now ? Promise.reject(new StoreUnavailableError()) : memory.ping()),
    close: () => memory.close(),
  };
  return { store, down };
}
