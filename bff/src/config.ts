// The BFF's settings, read once from the environment by the schema in config-schema/ (one entry a
// variable); this file adds the rules that join several variables, and the demo switch.
import { Parser, type Env } from './env-parser.js';
import { isSimulatorEnv, readSettings, type Mode, type Settings } from './config-schema/index.js';

export { FORM_OVERHEAD_BYTES, isSimulatorEnv, maxFormBytes } from './config-schema/index.js';

/** Every setting of the BFF (docs/configuration.md), parsed once from the environment. Frozen. */
export interface Config extends Settings {
  /** Nothing real configured; the BFF runs only as the demo (DEMO=true), with the simulator. */
  readonly simulator: boolean;
  /** The demo's own settings (DEMO=true); undefined for a real deployment. */
  readonly demo?: DemoConfig;
  /** SPENT_TOKENS_FILE was set: that file must work. The default one may be unwritable (a read-only container). */
  readonly spentTokensFileChosen: boolean;
}

/** Settings only the demo entry (demo/main.ts) reads; the server passes them on untouched. */
export interface DemoConfig {
  /** How long the simulated agent takes to answer (tests make it fast). */
  replyDelayMs: number;
  /** Share of webhooks the simulated service sends twice (0 to 1). */
  duplicateRate: number;
}

/** Thrown by `loadConfig` with one line per bad variable (never a secret's value). */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
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
  const { settings, mode } = readSettings(env, problems);
  problems.push(...crossChecks(settings, mode, env));
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    ...settings,
    simulator: mode.simulator,
    demo: settings.demoOn ? { replyDelayMs: settings.simReplyDelayMs, duplicateRate: settings.simDuplicateRate } : undefined,
    spentTokensFileChosen: new Parser(env, []).optional('SPENT_TOKENS_FILE') !== undefined,
  });
}

/** The rules that join several variables, one line each (never a value). */
function crossChecks(s: Settings, mode: Mode, env: Env): string[] {
  const problems: string[] = [];
  if (s.demoOn && !mode.simulator) problems.push('DEMO=true runs the built-in simulator: unset UPSTREAM_BASE_URL (and GATEWAY_BASE_URL in model mode)');
  if (!s.demoOn && mode.simulator) {
    problems.push(mode.production ? NOTHING_CONFIGURED : 'Nothing to talk to: set UPSTREAM_BASE_URL, or CHAT_MODE=model with GATEWAY_BASE_URL; or unset DEMO (or set DEMO=true) to run the demo');
  }
  const flows = Object.keys(s.flowTokens).length > 0;
  if (!mode.simulator && s.upstreamBaseUrl === undefined && flows) problems.push('FLOW_TOKENS needs UPSTREAM_BASE_URL: flows run on the service host');
  if (s.headersTimeoutMs > s.requestTimeoutMs) problems.push('HEADERS_TIMEOUT_MS must not be longer than REQUEST_TIMEOUT_MS');
  if (s.uploadFlow !== undefined && !(s.uploadFlow in s.flowTokens)) problems.push(`UPLOAD_FLOW names "${s.uploadFlow}", which is not in FLOW_TOKENS`);
  if (s.identitySecret !== undefined && s.identitySecret === s.sessionJwtSecret) {
    problems.push("IDENTITY_SECRET must differ from SESSION_JWT_SECRET: the host site's backend would hold the key that signs the widget's session tokens");
  }
  if (s.identityRequired && s.identitySecret === undefined && env.IDENTITY_JWKS_URL === undefined) {
    problems.push('IDENTITY_REQUIRED=true needs IDENTITY_SECRET or IDENTITY_JWKS_URL to verify identity tokens');
  }
  if (s.feedbackWebhookUrl !== undefined && (s.feedbackWebhookSecret === undefined || Buffer.byteLength(s.feedbackWebhookSecret) < 16)) {
    problems.push('FEEDBACK_WEBHOOK_URL needs FEEDBACK_WEBHOOK_SECRET (at least 16 bytes) to sign the votes it receives');
  }
  if (s.smtpUrl !== undefined && s.emailFrom === undefined) problems.push('SMTP_URL needs EMAIL_FROM, the address the emails come from');
  if (s.smtpUrl !== undefined && s.publicOrigin === undefined && !mode.simulator) problems.push('SMTP_URL needs PUBLIC_ORIGIN: the unsubscribe link of each email points at the BFF');
  if (s.redisUrl !== undefined && s.redisClusterNodes !== undefined) problems.push('Set REDIS_URL (one Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both');
  return problems;
}
