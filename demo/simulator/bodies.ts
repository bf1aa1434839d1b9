// The simulator's request bodies as valibot schemas, like the BFF's (shared/bodies.ts): each field's
// check, its error code and message in one place. readJsonObject (errors.ts) still reads the bytes.
import * as v from 'valibot';
import { bodyProblem } from '../../shared/bodies.js';
import { BADGE_KINDS, type BadgeKind } from './badges.js';
import { SimError } from './errors.js';

const isString = (x: unknown): x is string => typeof x === 'string';
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** True for what the simulator takes as an e-mail address (the service documents no stricter form). */
export const isEmail = (x: string): boolean => EMAIL.test(x);
const MAX_MESSAGE = 10_000;

/** An optional string field: absent or null is none, else a string of at most `max` characters. */
export function optionalString(key: string, max: number) {
  return v.pipe(
    v.optional(v.unknown()),
    v.check((x) => x === undefined || x === null || isString(x), `"${key}" must be a string`),
    v.check((x) => !isString(x) || x.length <= max, `"${key}" must be at most ${max} characters`),
    v.transform((x) => (isString(x) ? x : undefined)),
  );
}

/** An optional boolean field: absent or null is none. */
function optionalBoolean(key: string) {
  return v.pipe(
    v.optional(v.unknown()),
    v.check((x) => x === undefined || x === null || typeof x === 'boolean', `"${key}" must be true or false`),
    v.transform((x) => (typeof x === 'boolean' ? x : undefined)),
  );
}

/** POST /v1/bots/{botKey}/messages/: the seed's send body. */
export const SendBody = v.object({
  message: v.pipe(
    v.unknown(),
    v.check((x) => isString(x) && x.trim() !== '', '"message" must be a non-empty string'),
    v.transform((x) => x as string),
    v.maxLength(MAX_MESSAGE, `"message" must be at most ${MAX_MESSAGE} characters`),
  ),
  webhookUrl: v.pipe(
    optionalString('webhookUrl', 2000),
    v.check((x) => x === undefined || isHttpUrl(x), '"webhookUrl" must be an http(s) URL'),
  ),
  profileName: optionalString('profileName', 200),
  isTestChat: optionalBoolean('isTestChat'),
  webhookOnly: optionalBoolean('webhookOnly'),
  session: optionalString('session', 64),
});

/** An operator's address for an escalation (`PATCH /v1/conversations/{id}` and the console's take-over). */
export const operatorEmail = (message: string) =>
  v.pipe(optionalString('operatorEmail', 320), v.check((x) => x === undefined || isEmail(x), message));

/** POST /operator/conversations/{id}/messages: `{text, name?}` or `{badge, name?}`. */
export const OperatorMessageBody = v.pipe(
  v.object({
    name: optionalString('name', 60),
    text: optionalString('text', 4000),
    badge: v.pipe(
      v.optional(v.unknown()),
      v.check((x) => x === undefined || (isString(x) && (BADGE_KINDS as readonly string[]).includes(x)), `invalid_badge|"badge" must be one of: ${BADGE_KINDS.join(', ')}`),
      v.transform((x) => x as BadgeKind | undefined),
    ),
  }),
  v.check((x) => x.text === undefined || x.badge === undefined, 'Send either "text" or "badge", not both'),
  v.check((x) => x.badge !== undefined || (x.text ?? '').trim() !== '', '"text" must be a non-empty string'),
);

/** The schema's output, or its first failed check as a 400 with the check's code (`invalid_request` unless it names another). */
export function simBody<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  let [issue] = result.issues;
  // A missing required field is checked as an absent value, so it gets the field's own message (as the BFF's checkBody).
  const key = issue.path?.[0];
  if (key?.origin === 'key' && 'entries' in schema) {
    const again = v.safeParse((schema.entries as Record<string, v.GenericSchema>)[String(key.key)]!, undefined);
    if (!again.success) issue = again.issues[0];
  }
  const { code, message } = bodyProblem(issue);
  throw new SimError(400, code, message);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
