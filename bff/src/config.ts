import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser, type Env } from './env-parser.js';
import { VERIFIED_VARIABLES } from './lib/variables.js';
import { MIN_WEBHOOK_SECRET_LENGTH, WEBHOOK_WINDOW_SEC } from './lib/webhook-verify.js';
import type { Config, DemoConfig } from './config-types.js';

export type { Config, DemoConfig } from './config-types.js';

/** Thrown by `loadConfig` with one line per bad variable (never a secret's value). */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/** Room in a multipart body for the non-file parts and the part headers. */
export const FORM_OVERHEAD_BYTES = 256 * 1024;

/** The largest multipart body a flow or upload request may have. */
export function maxFormBytes(maxUploadFiles: number, maxUploadBytes: number): number {
  return maxUploadFiles * maxUploadBytes + FORM_OVERHEAD_BYTES;
}

/**
 * Simulator (demo) mode: nothing real configured, that is no service host and, in model mode,
 * no gateway host either. A model-only deployment (CHAT_MODE=model with GATEWAY_BASE_URL) is real.
 */
export function isSimulatorEnv(env: Env): boolean {
  const set = (name: string) => !!env[name]?.trim();
  return !set('UPSTREAM_BASE_URL') && !(env.CHAT_MODE?.trim() === 'model' && set('GATEWAY_BASE_URL'));
}

/**
 * Whether `npm start` should run the demo: asked for (DEMO=true), or nothing configured outside
 * production (a laptop). In production nothing configured is a mistake, refused by `loadConfig`.
 */
export function wantsDemo(env: Env): boolean {
  const p = new Parser(env, []); // a bad DEMO value is reported by loadConfig, on the server's way in
  return p.bool('DEMO', isSimulatorEnv(env) && p.optional('NODE_ENV') !== 'production');
}

/** The one line a production server with nothing to talk to stops with (docs/api.md "Operations"). */
export const NOTHING_CONFIGURED =
  'NODE_ENV=production needs UPSTREAM_BASE_URL, or CHAT_MODE=model with GATEWAY_BASE_URL; set DEMO=true to run the demo on purpose';

/** Parses and validates the environment once; throws `ConfigError` naming every bad variable. */
export function loadConfig(env: Env = process.env): Readonly<Config> {
  const problems: string[] = [];
  const p = new Parser(env, problems);

  const upstreamBaseUrl = p.url('UPSTREAM_BASE_URL');
  const simulator = isSimulatorEnv(env);
  const demo = readDemo(p, problems, simulator);
  const chatMode = p.oneOf('CHAT_MODE', ['agent', 'model'] as const, 'agent');
  const flowTokens = parseFlowTokens(p.list('FLOW_TOKENS', []), problems);
  // Secrets are required against a real upstream; the simulator gets fresh random ones. Model
  // mode talks to no agent: its token and bot key are not needed, nor a webhook secret unless
  // flows (whose results come back as webhooks) are on. An unknown random secret refuses every webhook.
  const secret = (name: string, needed = !simulator) => p.string(name, needed ? undefined : randomBytes(32).toString('base64url'));
  const agentNeeded = !simulator && chatMode === 'agent';
  const webhooksNeeded = agentNeeded || (!simulator && Object.keys(flowTokens).length > 0);
  if (!simulator && upstreamBaseUrl === undefined && Object.keys(flowTokens).length > 0) {
    problems.push('FLOW_TOKENS needs UPSTREAM_BASE_URL: flows run on the service host');
  }

  const sessionJwtSecret = secret('SESSION_JWT_SECRET');
  if (sessionJwtSecret && Buffer.byteLength(sessionJwtSecret) < 32) {
    problems.push('SESSION_JWT_SECRET must be at least 32 bytes');
  }
  const webhookSecrets = p.list('WEBHOOK_SECRET', webhooksNeeded ? undefined : [randomBytes(32).toString('base64url')]);
  if (webhookSecrets.some((s) => s.length < MIN_WEBHOOK_SECRET_LENGTH)) {
    problems.push(`WEBHOOK_SECRET must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters (each one, during a rotation): a short secret can be guessed from one signed webhook`);
  }

  const allowedOrigins = p.list('ALLOWED_ORIGINS', simulator ? ['*'] : undefined).map((o) => o.replace(/\/+$/, ''));
  for (const origin of allowedOrigins) {
    if (origin === '*') {
      if (!simulator) problems.push('ALLOWED_ORIGINS may be * only in simulator mode; list the exact origins');
    } else if (!isOrigin(origin)) {
      problems.push(`ALLOWED_ORIGINS has "${origin}", which is not an origin like https://www.example.com`);
    }
  }

  const publicOrigin = p.optional('PUBLIC_ORIGIN')?.replace(/\/+$/, '');
  if (publicOrigin !== undefined && !isOrigin(publicOrigin)) {
    problems.push(`PUBLIC_ORIGIN is "${publicOrigin}", which is not an origin like https://chat.example.com`);
  }

  const maxUploadBytes = p.int('MAX_UPLOAD_BYTES', 10_485_760, 1, 1_073_741_824);
  const maxUploadFiles = p.int('MAX_UPLOAD_FILES', 5, 1, 100);
  // One request may need this much; by default at least four such at once, and 256 MiB.
  const oneUpload = maxFormBytes(maxUploadFiles, maxUploadBytes);
  const maxUploadMemoryBytes = p.int('MAX_UPLOAD_MEMORY_BYTES', Math.max(256 * 1024 * 1024, 4 * oneUpload), 1, Number.MAX_SAFE_INTEGER);
  if (maxUploadMemoryBytes < oneUpload) {
    problems.push(`MAX_UPLOAD_MEMORY_BYTES must hold one whole upload: at least ${oneUpload} (MAX_UPLOAD_FILES × MAX_UPLOAD_BYTES + ${FORM_OVERHEAD_BYTES})`);
  }
  const requestTimeoutMs = p.int('REQUEST_TIMEOUT_MS', 120_000, 1000, 3_600_000);
  const headersTimeoutMs = p.int('HEADERS_TIMEOUT_MS', 10_000, 1000, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) problems.push('HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS');
  const uploadFlow = p.optional('UPLOAD_FLOW');
  if (uploadFlow !== undefined && !(uploadFlow in flowTokens)) {
    problems.push(`UPLOAD_FLOW names "${uploadFlow}", which is not in FLOW_TOKENS`);
  }

  const userVariables = p.list('USER_VARIABLES', []);
  for (const name of VERIFIED_VARIABLES) {
    if (userVariables.includes(name)) problems.push(`USER_VARIABLES may not list ${name}: the BFF sets it for signed-in users`);
  }
  const identitySecret = p.optional('IDENTITY_SECRET');
  if (identitySecret !== undefined && Buffer.byteLength(identitySecret) < 32) {
    problems.push('IDENTITY_SECRET must be at least 32 bytes');
  }
  if (identitySecret !== undefined && identitySecret === sessionJwtSecret) {
    problems.push("IDENTITY_SECRET must differ from SESSION_JWT_SECRET: the host site's backend would hold the key that signs the widget's session tokens");
  }
  const identityJwksUrl = p.url('IDENTITY_JWKS_URL');
  const identityRequired = p.bool('IDENTITY_REQUIRED', false);
  if (identityRequired && identitySecret === undefined && env.IDENTITY_JWKS_URL === undefined) {
    problems.push('IDENTITY_REQUIRED=true needs IDENTITY_SECRET or IDENTITY_JWKS_URL to verify identity tokens');
  }

  const feedbackWebhookUrl = p.url('FEEDBACK_WEBHOOK_URL');
  const feedbackWebhookSecret = p.optional('FEEDBACK_WEBHOOK_SECRET');
  if (feedbackWebhookUrl !== undefined && (feedbackWebhookSecret === undefined || Buffer.byteLength(feedbackWebhookSecret) < 16)) {
    problems.push('FEEDBACK_WEBHOOK_URL needs FEEDBACK_WEBHOOK_SECRET (at least 16 bytes) to sign the votes it receives');
  }

  const feedbackConcurrency = p.int('FEEDBACK_CONCURRENCY', 8, 1, 256);

  const redisUrl = p.redisUrl('REDIS_URL');
  const redisClusterNodes = p.hostPorts('REDIS_CLUSTER_NODES');
  if (redisUrl !== undefined && redisClusterNodes !== undefined) {
    problems.push('Set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both');
  }

  const dedupTtlSec = p.int('DEDUP_TTL_SEC', 86_400, 60, 30 * 86_400);
  if (dedupTtlSec < WEBHOOK_WINDOW_SEC) {
    problems.push(`DEDUP_TTL_SEC must be at least ${WEBHOOK_WINDOW_SEC}, the webhook replay window: a signed webhook replayed after its id was forgotten would be delivered again`);
  }

  const config: Config = {
    port: p.int('PORT', 8787, 0, 65535),
    host: p.string('HOST', '0.0.0.0'),
    upstreamBaseUrl: upstreamBaseUrl?.replace(/\/+$/, ''),
    simulator,
    demo,
    upstreamAccessToken: secret('UPSTREAM_ACCESS_TOKEN', agentNeeded),
    agentBotKey: secret('AGENT_BOT_KEY', agentNeeded),
    webhookSecrets,
    sessionJwtSecret,
    allowedOrigins,
    publicOrigin,
    redisUrl,
    redisClusterNodes,
    sessionTokenTtlSec: p.int('SESSION_TOKEN_TTL', 900, 30, 86_400),
    refreshTokenTtlSec: p.int('REFRESH_TOKEN_TTL', 604_800, 60, 31_536_000),
    spentTokensFile: p.optional('SPENT_TOKENS_FILE') ?? (p.optional('SESSION_JWT_SECRET') ? defaultSpentTokensFile(sessionJwtSecret) : undefined),
    spentTokensFileChosen: p.optional('SPENT_TOKENS_FILE') !== undefined,
    testChat: p.bool('TEST_CHAT', false),
    devWebhookUrl: p.url('DEV_WEBHOOK_URL'),
    escalationOperatorEmail: p.email('ESCALATION_OPERATOR_EMAIL'),
    userVariables,
    flowTokens,
    uploadFlow,
    maxUploadBytes,
    maxUploadFiles,
    maxUploadMemoryBytes,
    bodyIdleTimeoutMs: p.int('BODY_IDLE_TIMEOUT_MS', 10_000, 100, 600_000),
    webhookBodyTimeoutMs: p.int('WEBHOOK_BODY_TIMEOUT_MS', 10_000, 100, 600_000),
    requestTimeoutMs,
    headersTimeoutMs,
    chatMode,
    gatewayBaseUrl: p.url('GATEWAY_BASE_URL')?.replace(/\/+$/, ''),
    gatewayApiKey: chatMode === 'model' && !simulator ? p.string('GATEWAY_API_KEY') : p.string('GATEWAY_API_KEY', ''),
    gatewayRegion: p.oneOf('GATEWAY_REGION', ['eu', 'global'] as const, 'eu'),
    gatewayModel:
      chatMode === 'model' && !simulator ? p.string('GATEWAY_MODEL') : p.string('GATEWAY_MODEL', 'mistral/mistral-small'),
    gatewaySystemPrompt: p.string('GATEWAY_SYSTEM_PROMPT', ''),
    gatewayMaxHistory: p.int('GATEWAY_MAX_HISTORY', 20, 1, 500),
    gatewayMaxTokens: p.int('GATEWAY_MAX_TOKENS', 1024, 1, 100_000),
    rateLimitSessionsPerMin: p.int('RATE_LIMIT_SESSIONS_PER_MIN', 20, 1, 1_000_000),
    rateLimitMessagesPerMin: p.int('RATE_LIMIT_MESSAGES_PER_MIN', 30, 1, 1_000_000),
    trustProxy: p.bool('TRUST_PROXY', false),
    upstreamTimeoutMs: p.int('UPSTREAM_TIMEOUT_MS', 10_000, 100, 300_000),
    upstreamRetries: p.int('UPSTREAM_RETRIES', 3, 0, 10),
    eventRetentionCount: p.int('EVENT_RETENTION_COUNT', 1000, 10, 1_000_000),
    eventRetentionSec: p.int('EVENT_RETENTION_SEC', 7 * 86_400, 60, 365 * 86_400),
    dedupTtlSec,
    feedbackConcurrency,
    heartbeatSec: p.int('HEARTBEAT_SEC', 15, 1, 25),
    streamReconnectSec: p.int('STREAM_RECONNECT_SEC', 60, 0, 3600),
    maxStreamsPerConversation: p.int('MAX_STREAMS_PER_CONVERSATION', 20, 1, 1000),
    maxStreamsPerClient: p.int('MAX_STREAMS_PER_CLIENT', 500, 1, 100_000),
    widgetTitle: p.localizedText('WIDGET_TITLE'),
    widgetGreeting: p.localizedText('WIDGET_GREETING'),
    widgetAccent: p.color('WIDGET_ACCENT', '#4f46e5'),
    widgetPosition: p.oneOf('WIDGET_POSITION', ['right', 'left'] as const, 'right'),
    widgetScheme: p.oneOf('WIDGET_SCHEME', ['light', 'dark', 'auto'] as const, 'auto'),
    logLevel: p.oneOf('LOG_LEVEL', ['debug', 'info', 'warn', 'error', 'silent'] as const, 'info'),
    metricsToken: p.optional('METRICS_TOKEN'),
    identitySecret,
    identityJwksUrl,
    identityIssuer: p.optional('IDENTITY_ISSUER'),
    identityRequired,
    feedbackWebhookUrl,
    feedbackWebhookSecret,
  };

  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/**
 * DEMO=true runs the built-in simulator on purpose; nothing configured without it is refused, in
 * production with the line operators look for. A real service and the demo exclude each other.
 */
function readDemo(p: Parser, problems: string[], simulator: boolean): DemoConfig | undefined {
  const production = p.optional('NODE_ENV') === 'production';
  const on = p.bool('DEMO', false);
  const demo: DemoConfig = {
    replyDelayMs: p.int('SIM_REPLY_DELAY_MS', 400, 0, 60_000),
    duplicateRate: p.number('SIM_DUPLICATE_RATE', 0.1, 0, 1),
  };
  if (on && !simulator) problems.push('DEMO=true runs the built-in simulator: unset UPSTREAM_BASE_URL (and GATEWAY_BASE_URL in model mode)');
  if (!on && simulator) {
    problems.push(production ? NOTHING_CONFIGURED : 'Nothing to talk to: set UPSTREAM_BASE_URL, or CHAT_MODE=model with GATEWAY_BASE_URL; `npm start` runs the demo');
  }
  return on ? demo : undefined;
}

/**
 * In the temporary folder (it survives a restart of the process), one file per session key: BFFs
 * with other keys cannot use each other's tokens, so they need not share. The name reveals nothing
 * of the key.
 */
function defaultSpentTokensFile(sessionJwtSecret: string): string {
  const name = createHash('sha256').update(`parley spent tokens\n${sessionJwtSecret}`).digest('hex').slice(0, 16);
  return join(tmpdir(), `parley-spent-tokens-${name}`);
}

/** `name:token,name2:token2` → `{name: token}`; a malformed entry adds one problem. */
function parseFlowTokens(entries: string[], problems: string[]): Record<string, string> {
  const flowTokens: Record<string, string> = {};
  for (const entry of entries) {
    const i = entry.indexOf(':');
    const name = entry.slice(0, i).trim();
    const token = entry.slice(i + 1).trim();
    if (i <= 0 || !token || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
      problems.push('FLOW_TOKENS must look like name:token,name2:token2 (names of letters, digits, _ or -)');
      break;
    }
    flowTokens[name] = token;
  }
  return flowTokens;
}

function isOrigin(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === value;
  } catch {
    return false;
  }
}
