// The configuration schema: every environment variable once. Config's type, the start-up report,
// docs/configuration.md, .env.example and GET /api/config's settings all come from SCHEMA.
import type { Env } from '../env-parser.js';
import { Parser } from '../env-parser.js';
import { BROWSERS } from './browsers.js';
import { IDENTITY } from './identity.js';
import { SERVICE } from './service.js';
import { modeOf, type Mode, type PublicPart, type Setting } from './setting.js';
import { STORAGE } from './storage.js';
import { WIDGET } from './widget.js';
import { PEOPLE } from './people.js';
import { EMAIL } from './email.js';

export { GROUPS, isSimulatorEnv, modeOf, type Mode, type Setting } from './setting.js';
export { FORM_OVERHEAD_BYTES, maxFormBytes } from './browsers.js';

export const SCHEMA = { ...SERVICE, ...BROWSERS, ...IDENTITY, ...STORAGE, ...WIDGET, ...PEOPLE, ...EMAIL };

type ValueOf<S> = S extends Setting<infer T> ? T : never;
/** One typed value per schema entry, named by its key. */
export type Settings = { readonly [K in keyof typeof SCHEMA]: ValueOf<(typeof SCHEMA)[K]> };

/** Every entry, as the generators and tests walk them. */
export const ENTRIES: ReadonlyArray<readonly [keyof typeof SCHEMA, Setting<unknown>]> = Object.entries(SCHEMA) as never;

/** Reads every entry in schema order; each bad variable adds its line to `problems`. */
export function readSettings(env: Env, problems: string[]): { settings: Settings; mode: Mode } {
  const mode = modeOf(env);
  const p = new Parser(env, problems);
  const settings: Record<string, unknown> = {};
  for (const [key, entry] of ENTRIES) settings[key] = entry.read(p, mode);
  return { settings: settings as Settings, mode };
}

/** What the entries marked public contribute to GET /api/config, merged. */
export function publicSettings(settings: Settings): PublicPart {
  const merged: Record<string, unknown> = {};
  for (const [key, entry] of ENTRIES) {
    if (!entry.public) continue;
    for (const [field, value] of Object.entries(entry.public(settings[key]))) {
      const before = merged[field];
      merged[field] = isPlainObject(before) && isPlainObject(value) ? { ...before, ...value } : value;
    }
  }
  return merged as PublicPart;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
