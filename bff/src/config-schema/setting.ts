// The shape of one entry of the configuration schema, and what every entry may read besides its own variable.
import { randomBytes } from 'node:crypto';
import type { PublicConfig } from '../../../shared/types.js';
import { Parser, type Env } from '../env-parser.js';
import { VERIFIED_VARIABLES } from '../lib/variables.js';

/** The tables of docs/configuration.md, in this order (the grouping docs/api.md used). */
export const GROUPS = {
  service: 'The service and the chat',
  browsers: 'Browsers, sessions and limits',
  storage: 'Storage',
  widget: 'Widget look and operations',
  email: 'Email to visitors',
} as const;

type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartial<T[K]> : T[K] };
/** The part of `GET /api/config` a public setting fills (merged with the other public settings). */
export type PublicPart = DeepPartial<PublicConfig>;

/** What decides which variables are required: read before any entry, without reporting problems. */
export interface Mode {
  /** Nothing real configured: the BFF runs only as the demo. */
  simulator: boolean;
  production: boolean;
  chatMode: 'agent' | 'model';
  /** Agent messaging against a real service: its token, bot key and webhook secret are required. */
  agentNeeded: boolean;
  /** Webhooks will arrive (agent mode, or flows whose results come back as webhooks). */
  webhooksNeeded: boolean;
}

/**
 * One environment variable: how it is read and checked, and how it is documented. docs/configuration.md,
 * .env.example, the typed Config and the public part of GET /api/config all come from these entries.
 */
export interface Setting<T> {
  env: string;
  group: keyof typeof GROUPS;
  /** The "Meaning" cell of docs/configuration.md (Markdown). */
  doc: string;
  /** The "Default" cell of docs/configuration.md (Markdown). */
  default: string;
  /** The value .env.example shows (empty when unset). */
  example?: string;
  /** An empty value is refused: .env.example shows the line commented out, so a copied file starts. */
  noEmpty?: true;
  /** Never printed, never public; tests check the start-up report does not echo it. */
  secret?: true;
  /** Sent to every browser by GET /api/config, as this part. */
  public?: (value: NoInfer<T>) => PublicPart;
  /** Reads and checks the variable; a bad value adds one problem line to `p` (never the value). */
  read: (p: Parser, mode: Mode) => T;
}

/** Declares an entry: the value's type comes from `read`. */
export function setting<T>(entry: Setting<T>): Setting<T> {
  return entry;
}

/** A secret that is required when `needed`, else a fresh random one (an unknown secret accepts nothing). */
export function secret(p: Parser, name: string, needed: boolean): string {
  return p.string(name, needed ? undefined : randomBytes(32).toString('base64url'));
}

/**
 * Simulator (demo) mode: nothing real configured, that is no service host and, in model mode,
 * no gateway host either. A model-only deployment (CHAT_MODE=model with GATEWAY_BASE_URL) is real.
 */
export function isSimulatorEnv(env: Env): boolean {
  const set = (name: string) => !!env[name]?.trim();
  return !set('UPSTREAM_BASE_URL') && !(env.CHAT_MODE?.trim() === 'model' && set('GATEWAY_BASE_URL'));
}

/** The mode, read quietly: the entries of CHAT_MODE and FLOW_TOKENS report their own problems. */
export function modeOf(env: Env): Mode {
  const quiet = new Parser(env, []);
  const simulator = isSimulatorEnv(env);
  const chatMode = quiet.oneOf('CHAT_MODE', ['agent', 'model'] as const, 'agent');
  const agentNeeded = !simulator && chatMode === 'agent';
  const flows = Object.keys(parseFlowTokens(quiet, quiet.list('FLOW_TOKENS', []))).length > 0;
  return { simulator, production: quiet.optional('NODE_ENV') === 'production', chatMode, agentNeeded, webhooksNeeded: agentNeeded || (!simulator && flows) };
}

/** `name:token,name2:token2` → `{name: token}`; a malformed entry adds one problem. */
export function parseFlowTokens(p: Parser, entries: string[]): Record<string, string> {
  const flowTokens: Record<string, string> = {};
  for (const entry of entries) {
    const i = entry.indexOf(':');
    const name = entry.slice(0, i).trim();
    const token = entry.slice(i + 1).trim();
    if (i <= 0 || !token || !/^[A-Za-z0-9_-]{1,64}$/.test(name)) {
      p.report('FLOW_TOKENS must look like name:token,name2:token2 (names of letters, digits, _ or -)');
      break;
    }
    flowTokens[name] = token;
  }
  return flowTokens;
}

/** http(s) scheme, host and port only, without a trailing slash. */
export function isOrigin(value: string): boolean {
  try {
    const u = new URL(value);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.origin === value;
  } catch {
    return false;
  }
}

/**
 * Refuses a setting that names a variable of VERIFIED_VARIABLES (USER_VARIABLES, CONTACT_VARIABLES,
 * LOCALE_VARIABLE): the page could then write it, and it would no longer mean "verified".
 */
export function refuseVerifiedNames(p: Parser, env: string, names: readonly string[]): void {
  const taken = VERIFIED_VARIABLES.find((name) => names.includes(name));
  if (taken) p.report(`${env} may not name ${taken}: the BFF sets it for signed-in users, and it must mean "verified"`);
}
