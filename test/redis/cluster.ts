import { MemoryOnceStore } from '../../bff/src/adapters/memory-limits.js';
import { TokenService, type TokenPair } from '../../bff/src/lib/tokens.js';
import { JWT_SECRET, postWebhook, WEBHOOK_SECRET } from '../helpers/bff.js';
import { startServer, type SpawnedServer } from '../helpers/server.js';
import { openSse, type SseClient, type SseEvent } from '../helpers/sse.js';

/**
 * Shared pieces of the multi-instance tests: BFF processes of one deployment (same Redis, same
 * secrets) against an upstream that is never reachable (port 9 on loopback refuses), so
 * everything these tests see comes from webhooks, tokens and the store.
 */
export function bffEnv(redisUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    REDIS_URL: redisUrl,
    UPSTREAM_BASE_URL: 'http://127.0.0.1:9',
    UPSTREAM_ACCESS_TOKEN: 'test-upstream-access-token',
    AGENT_BOT_KEY: 'test-bot-key',
    WEBHOOK_SECRET,
    SESSION_JWT_SECRET: JWT_SECRET,
    ALLOWED_ORIGINS: 'http://shop.test',
    UPSTREAM_RETRIES: '0',
    UPSTREAM_TIMEOUT_MS: '1000',
    HEARTBEAT_SEC: '1',
    ...extra,
  };
}

/** Starts `count` BFF processes of one deployment on `redisUrl`. */
export function startInstances(redisUrl: string, count: number, extra: Record<string, string> = {}): Promise<SpawnedServer[]> {
  return Promise.all(Array.from({ length: count }, () => startServer(bffEnv(redisUrl, extra))));
}

// Tokens are minted here as any instance would: the conversation id is the token's `sub`.
const tokens = new TokenService({ secret: JWT_SECRET, accessTtlSec: 900, refreshTtlSec: 3600, onceStore: new MemoryOnceStore() });

/** A conversation of its own (numeric, as the upstream's ids are) with a token pair for it. */
export async function conversation(): Promise<{ id: number } & TokenPair> {
  const id = 100_000 + Math.floor(Math.random() * 900_000_000);
  return { id, ...(await tokens.issue(String(id), undefined)) };
}

/** A signed `message.added` for conversation `id`; `label` becomes the message text. */
export function message(id: number, eventId: string, label = eventId) {
  return {
    event: 'message.added',
    eventId,
    sessionId: id,
    createdAt: Date.now(),
    data: { messageId: `m-${eventId}`, message: label, hbo: 'operator', username: 'Grace' },
  };
}

/** Posts `message(id, eventId)` to `base` and returns the HTTP status. */
export async function post(base: string, id: number, eventId: string): Promise<number> {
  return (await postWebhook(base, message(id, eventId))).status;
}

/** Opens the conversation's event stream on `base`, optionally resuming after `lastEventId`. */
export function stream(base: string, token: string, lastEventId?: string): Promise<SseClient> {
  return openSse(`${base}/api/events?token=${token}`, lastEventId ? { 'last-event-id': lastEventId } : {});
}

/** The texts of the `message` events a stream received, in order. */
export function texts(events: SseEvent[]): string[] {
  return events.filter((e) => e.event === 'message').map((e) => (JSON.parse(e.data) as { text: string }).text);
}

/** Waits for the message with text `label`. */
export function nextText(sse: SseClient, label: string, timeoutMs = 5000): Promise<SseEvent> {
  return sse.next((e) => e.event === 'message' && (JSON.parse(e.data) as { text?: string }).text === label, timeoutMs);
}

let markers = 0;

/**
 * The events `sse` received before a marker message posted through `base` last of all: a stream
 * gets its conversation's events in order, so a duplicate of anything before the marker would have
 * come before it. Instead of waiting a while to see that nothing more comes.
 */
export async function drained(sse: SseClient, base: string, id: number): Promise<SseEvent[]> {
  const label = `marker-${++markers}`;
  if ((await post(base, id, label)) !== 200) throw new Error(`the marker ${label} was not stored`);
  const marker = await nextText(sse, label);
  return sse.events.slice(0, sse.events.indexOf(marker));
}

export { sleep, until } from '../helpers/wait.js';
