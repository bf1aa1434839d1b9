// Request bodies by schema: the raw JSON bytes are read and parsed by readJsonText (media type, size, idle and
// nesting limits, lib/json-body.ts), then Hono's validator middleware checks that body against a schema from shared/bodies.ts.
import type { Context, MiddlewareHandler } from 'hono';
import { validator } from 'hono/validator';
import * as v from 'valibot';
import type { AppEnv } from '../context.js';
import { bodyProblem } from '../../../shared/bodies.js';
import { ValidationError } from '../errors.js';
import { MAX_JSON_BYTES } from './body-limits.js';
import { readJsonText } from './json-body.js';

/**
 * Reads the JSON body once with the byte limits (415, 413, invalid_json, too deep, not an object)
 * and keeps it for `jsonBody`.
 */
export function jsonBytes(idleMs: number, maxBytes = MAX_JSON_BYTES): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { text, body } = await readJsonText(c, idleMs, maxBytes);
    c.set('jsonBody', body);
    // The stream is spent: Hono's validator reads its own copy from here.
    (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
    await next();
  };
}

/**
 * Hono's validator with a body schema: `c.req.valid('json')` is the checked, typed body; a failed check is its code and message.
 * It checks the body `jsonBytes` parsed, not the `value` Hono passes: Hono reads the body only for the media
 * types it knows and hands over `{}` otherwise, so a difference between the two checks would validate an empty body.
 */
export function jsonBody<S extends v.GenericSchema>(schema: S) {
  return validator('json', (_value: unknown, c: Context<AppEnv>) => checkBody(schema, c.get('jsonBody')));
}

/** The schema's output, or the first failed check as a ValidationError (its code from the schema). */
export function checkBody<S extends v.GenericSchema>(schema: S, value: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  let [issue] = result.issues;
  // A missing required field is checked as an absent value, so it gets the field's own message and code.
  const key = issue.path?.[0];
  // Own fields only: a body key such as "constructor" must not find Object's.
  if (key?.origin === 'key' && 'entries' in schema && Object.hasOwn(schema.entries as object, String(key.key))) {
    const field = (schema.entries as Record<string, v.GenericSchema>)[String(key.key)];
    const again = field && v.safeParse(field, undefined);
    if (again && !again.success) issue = again.issues[0];
  }
  const { code, message } = bodyProblem(issue);
  throw new ValidationError(message, code);
}

/** For a message the route decides itself (a field needed only in one branch), the schema's own code and text. */
export function bodyError(codedMessage: string): ValidationError {
  const { code, message } = bodyProblem({ message: codedMessage });
  return new ValidationError(message, code);
}
