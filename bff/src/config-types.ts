// What the BFF's settings are; config.ts reads them from the environment.
import type { LocalizedText } from '../../shared/types.js';

/** Every setting of the BFF, parsed once from the environment (docs/api.md "Configuration"). Frozen. */
export interface Config {
  port: number;
  host: string;
  /** Unset: simulator mode (the demo starts the built-in upstream simulator). */
  upstreamBaseUrl?: string;
  /** Nothing real configured; the BFF runs only as the demo (DEMO=true), with the simulator. */
  simulator: boolean;
  /** The demo's own settings (DEMO=true); undefined for a real deployment. */
  demo?: DemoConfig;
  upstreamAccessToken: string;
  agentBotKey: string;
  webhookSecrets: string[];
  sessionJwtSecret: string;
  /** Exact origins, or `['*']` (only allowed in simulator mode). */
  allowedOrigins: string[];
  /** The origin browsers reach this BFF at (PUBLIC_ORIGIN); pages served from it may use the chat too. */
  publicOrigin?: string;
  /** One Redis server (`REDIS_URL`); never set together with `redisClusterNodes`. */
  redisUrl?: string;
  /** Seed nodes of a Redis Cluster (`REDIS_CLUSTER_NODES`); the rest of the cluster is discovered. */
  redisClusterNodes?: Array<{ host: string; port: number }>;
  sessionTokenTtlSec: number;
  refreshTokenTtlSec: number;
  /**
   * Memory mode: where spent refresh-token ids are kept across restarts (SPENT_TOKENS_FILE). Unset
   * when the session key is random per process: no token outlives it anyway.
   */
  spentTokensFile?: string;
  /** SPENT_TOKENS_FILE was set: that file must work. The default one may be unwritable (a read-only container). */
  spentTokensFileChosen: boolean;
  testChat: boolean;
  devWebhookUrl?: string;
  escalationOperatorEmail?: string;
  userVariables: string[];
  flowTokens: Record<string, string>;
  uploadFlow?: string;
  maxUploadBytes: number;
  maxUploadFiles: number;
  /** Bytes all uploads in progress may hold in this process at once (MAX_UPLOAD_MEMORY_BYTES). */
  maxUploadMemoryBytes: number;
  /** A request body that sends nothing for this long is cut (BODY_IDLE_TIMEOUT_MS). */
  bodyIdleTimeoutMs: number;
  /** A webhook body not complete this long after it began is cut (WEBHOOK_BODY_TIMEOUT_MS): the service sends small bodies at once. */
  webhookBodyTimeoutMs: number;
  /** Node's limits for receiving a whole request, and its headers (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS). */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  chatMode: 'agent' | 'model';
  gatewayBaseUrl?: string;
  gatewayApiKey: string;
  gatewayRegion: 'eu' | 'global';
  gatewayModel: string;
  gatewaySystemPrompt: string;
  gatewayMaxHistory: number;
  gatewayMaxTokens: number;
  rateLimitSessionsPerMin: number;
  rateLimitMessagesPerMin: number;
  trustProxy: boolean;
  upstreamTimeoutMs: number;
  upstreamRetries: number;
  eventRetentionCount: number;
  eventRetentionSec: number;
  dedupTtlSec: number;
  heartbeatSec: number;
  /** How long after its stream closed a stream ticket may reopen it with Last-Event-ID (STREAM_RECONNECT_SEC). */
  streamReconnectSec: number;
  /** Open event streams one conversation may have on this instance (then 429 too_many_streams). */
  maxStreamsPerConversation: number;
  /** Open event streams one client address may have on this instance: generous, as many visitors may share a NAT. */
  maxStreamsPerClient: number;
  widgetTitle?: LocalizedText;
  widgetGreeting?: LocalizedText;
  widgetAccent: string;
  widgetPosition: 'right' | 'left';
  widgetScheme: 'light' | 'dark' | 'auto';
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  /** When set, `/metrics` needs `Authorization: Bearer <token>`. */
  metricsToken?: string;
  /** Identity tokens of signed-in users (docs/api.md "Signed-in users"): HS256 key and/or JWKS URL (RS256, ES256, EdDSA). */
  identitySecret?: string;
  identityJwksUrl?: string;
  /** When set, an identity token's `iss` must equal it. */
  identityIssuer?: string;
  /** Votes are POSTed here, signed with `feedbackWebhookSecret` (docs/api.md "Engagement"). */
  feedbackWebhookUrl?: string;
  feedbackWebhookSecret?: string;
  /** Forwards to the feedback webhook in flight at once; more wait in a bounded queue, past it they are dropped. */
  feedbackConcurrency: number;
  /** Refuse sessions without an identity token. */
  identityRequired: boolean;
}

/** Settings only the demo entry (demo/main.ts) reads; the server passes them on untouched. */
export interface DemoConfig {
  /** How long the simulated agent takes to answer (tests make it fast). */
  replyDelayMs: number;
  /** Share of webhooks the simulated service sends twice (0 to 1). */
  duplicateRate: number;
}
