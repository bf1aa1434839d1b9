import { MemoryOnceStore, MemoryRateLimiter, MemoryStartRecords } from '../../bff/src/adapters/memory-limits.js';
import { MemoryEventStore } from '../../bff/src/adapters/memory-store.js';
import { MemoryUserDirectory } from '../../bff/src/adapters/memory-users.js';
import type { Config } from '../../bff/src/config.js';
import type { AppDeps } from '../../bff/src/context.js';
import { Heartbeat } from '../../bff/src/lib/sse.js';
import type { TokenService } from '../../bff/src/lib/tokens.js';
import { WebhookVerifier } from '../../bff/src/lib/webhook-verify.js';
import { silentLogger } from '../../bff/src/logger.js';

/**
 * The app's parts for a test of the event stream's routes: memory adapters, and the chat backend
 * left out (the stream never reaches it). `parts` replaces any of them (a store that fails, a
 * limiter that refuses, an observer).
 */
export function streamDeps(config: Readonly<Config>, tokens: TokenService, parts: Partial<AppDeps> = {}): AppDeps {
  return {
    config,
    store: new MemoryEventStore({ maxEvents: 10, maxAgeMs: 60_000, dedupTtlMs: 60_000 }),
    rateLimiter: new MemoryRateLimiter(),
    onceStore: new MemoryOnceStore(),
    starts: new MemoryStartRecords(),
    chat: {} as AppDeps['chat'],
    tokens,
    users: new MemoryUserDirectory(),
    verifier: new WebhookVerifier({ secrets: ['unused'] }),
    heartbeat: new Heartbeat(60_000),
    logger: silentLogger,
    ...parts,
  };
}
