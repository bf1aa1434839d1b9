import { Hono } from 'hono';
import type { BadgeKind } from './badges.js';
import { ConversationStore, summarize } from './conversations.js';
import { SimulatorEngine } from './engine.js';
import { errorResponse, readJsonObject } from './errors.js';
import { FaultInjector, type FaultSpec } from './faults.js';
import { createOperatorRoutes, operatorNameOf } from './operator.js';
import { createRestRoutes } from './rest.js';
import { sameOriginOnly } from './same-origin.js';
import type { ConversationSummary, DeliveryRecord, StoredMessage, VariableValue } from './types.js';
import { signWebhook, WebhookDispatcher } from './webhooks.js';

export interface SimulatorOptions {
  /** Bearer token required on every REST call (else 401). */
  accessToken: string;
  /** `bot_key` required in the send path (else 404). */
  botKey: string;
  /** HMAC secret for outgoing webhooks. */
  webhookSecret: string;
  /** Where signed webhooks go; a per-request `webhookUrl` in the send body overrides it. */
  webhookUrl: string;
  /** Probability that an event is delivered twice, same eventId (default 0.1). */
  duplicateRate?: number;
  /** Base delay of agent replies, jittered ±25% (default 400 ms). */
  replyDelayMs?: number;
  /** Unit of `x-service-timestamp` (default `s`; the seed does not say). */
  timestampUnit?: 's' | 'ms';
  fetch?: typeof fetch;
  random?: () => number;
  /** Absolute origin for image/file URLs in badges (default `http://localhost:8787`). */
  publicOrigin?: string;
  /** First webhook retry delay, doubling each time (default 250 ms). */
  retryBaseMs?: number;
  /** Delivery attempts per event before giving up (default 8). */
  maxAttempts?: number;
  /** A receiver slower than this counts as failed (default 5000 ms, as the seed's rule). */
  deliveryTimeoutMs?: number;
  /** Id of the first conversation (default 1001). */
  firstConversationId?: number;
  /** Whether the team is there now (the BFF's SUPPORT_HOURS); the agent promises no answer while it is away. Default: always. */
  teamHere?: () => boolean;
}

/** A running simulator of area B: mount `app`, and use the methods from tests and demo routes. */
export interface Simulator {
  app: Hono;
  readonly publicOrigin: string;
  /** Stops reply timers, retries and requests on the wire. */
  close(): Promise<void>;
  /** Makes the next `count` REST calls answer `status` (and/or wait `delayMs`). */
  injectFault(fault: FaultSpec): void;
  clearFaults(): void;
  conversations(): ConversationSummary[];
  conversation(id: number | string): { conversation: ConversationSummary; messages: StoredMessage[]; variables: Record<string, VariableValue> } | undefined;
  /** Recent delivery attempts, newest first. */
  deliveries(limit?: number): DeliveryRecord[];
  /** Sends an operator message (escalated conversations only). */
  operatorReply(id: number | string, input: { text: string; name?: string } | { badge: BadgeKind; name?: string }): StoredMessage;
  /** Posts a bot message into a conversation through the real dispatcher (a flow run's result). */
  deliverMessage(id: number | string, text: string): StoredMessage;
  /** Sends a delivered event once more with a fresh signature (default: the latest); for the demo's replay button. */
  redeliver(eventId?: string): Promise<DeliveryRecord | undefined>;
  /** Signs a body with the webhook secret; lets the demo forge a stale-but-signed webhook. */
  signWebhook(timestamp: string, rawBody: string): string;
  /** Resolves when no reply is pending and no webhook is queued or on the wire (tests). */
  idle(): Promise<void>;
}

/** Builds the simulator of the service's agent messaging (area B); no port is opened. */
export function createSimulator(options: SimulatorOptions): Simulator {
  for (const key of ['accessToken', 'botKey', 'webhookSecret', 'webhookUrl'] as const) {
    if (typeof options[key] !== 'string' || options[key] === '') throw new Error(`createSimulator: "${key}" is required`);
  }
  const random = options.random ?? Math.random;
  const publicOrigin = (options.publicOrigin ?? 'http://localhost:8787').replace(/\/+$/, '');
  const store = new ConversationStore(random, options.firstConversationId ?? 1001);
  const dispatcher = new WebhookDispatcher({
    secret: options.webhookSecret,
    fetch: options.fetch ?? globalThis.fetch,
    random,
    duplicateRate: options.duplicateRate ?? 0.1,
    timestampUnit: options.timestampUnit ?? 's',
    retryBaseMs: options.retryBaseMs ?? 250,
    maxAttempts: options.maxAttempts ?? 8,
    timeoutMs: options.deliveryTimeoutMs ?? 5000,
  });
  const engine = new SimulatorEngine(store, dispatcher, {
    defaultWebhookUrl: options.webhookUrl,
    replyDelayMs: options.replyDelayMs ?? 400,
    origin: publicOrigin,
    random,
    omitCreatedAtRate: 0.2,
    teamHere: options.teamHere ?? (() => true),
  });
  const faults = new FaultInjector();

  const app = new Hono();
  app.onError(errorResponse);
  app.notFound((c) => c.json({ error: { code: 'not_found', message: 'No such simulator route' } }, 404));

  // Fault injection for tests and the demo. No auth: it is a simulator, never a real service.
  app.use('/__faults', sameOriginOnly);
  app.post('/__faults', async (c) => {
    faults.add((await readJsonObject(c)) as FaultSpec);
    return c.json({ faults: faults.list() }, 201);
  });
  app.get('/__faults', (c) => c.json({ faults: faults.list() }));
  app.delete('/__faults', (c) => {
    faults.clear();
    return c.json({ faults: [] });
  });

  app.route('/', createRestRoutes(engine, faults, { accessToken: options.accessToken, botKey: options.botKey }));
  app.route('/', createOperatorRoutes(engine, dispatcher));

  return {
    app,
    publicOrigin,
    async close() {
      engine.close();
      faults.close();
      await dispatcher.close();
    },
    injectFault: (fault) => faults.add(fault),
    clearFaults: () => faults.clear(),
    conversations: () => store.list().map(summarize),
    conversation(id) {
      const c = store.find(id);
      return c && { conversation: summarize(c), messages: [...c.messages], variables: { ...c.variables } };
    },
    deliveries: (limit = 100) => dispatcher.deliveries({ limit }),
    operatorReply(id, input) {
      const name = operatorNameOf(input.name);
      return engine.operatorMessage(engine.get(id), 'text' in input ? { name, text: input.text } : { name, badge: input.badge });
    },
    deliverMessage: (id, text) => engine.botMessage(engine.get(id), text),
    redeliver: (eventId) => dispatcher.redeliver(eventId),
    signWebhook: (timestamp, rawBody) => signWebhook(options.webhookSecret, timestamp, rawBody),
    async idle() {
      // Polling keeps the engine and dispatcher free of waiter bookkeeping; it is for tests only.
      while (!(engine.isIdle() && dispatcher.isIdle())) await new Promise((r) => setTimeout(r, 2));
    },
  };
}

export { BADGE_KINDS, badgeJson, type BadgeKind } from './badges.js';
export { signWebhook } from './webhooks.js';
export type { FaultSpec } from './faults.js';
export type { ConversationSummary, DeliveryRecord, StoredMessage, WebhookEnvelope } from './types.js';
