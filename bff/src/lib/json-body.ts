// A JSON object body: its media type, then its bytes (with the limits), nesting and parse.
import type { Context } from 'hono';
import { AppError, ValidationError } from '../errors.js';
import { mediaTypeOf } from '../../../shared/media-type.js';
import { isRecord } from '../../../shared/records.js';
import { MAX_JSON_BYTES } from './body-limits.js';
import { readRequestBody } from './body-read.js';
import { jsonDepthWithin, MAX_JSON_DEPTH } from './json-depth.js';

/**
 * Reads a JSON object body of at most `maxBytes`, cut after `idleMs` without a byte; 415 for
 * another media type, 400 for bad JSON or nesting deeper than `MAX_JSON_DEPTH`.
 */
export async function readJsonObject(c: Context, idleMs: number, maxBytes = MAX_JSON_BYTES): Promise<Record<string, unknown>> {
  return (await readJsonText(c, idleMs, maxBytes)).body;
}

/** `readJsonObject`, with the body's text as it came (for Hono's validator, which parses text). */
export async function readJsonText(c: Context, idleMs: number, maxBytes = MAX_JSON_BYTES): Promise<{ text: string; body: Record<string, unknown> }> {
  if (!isJsonMediaType(c.req.header('content-type'))) {
    throw new AppError('unsupported_media_type', 'Send the body as application/json');
  }
  const bytes = await readRequestBody(c, maxBytes, { idleMs });
  // Before parsing, so nothing deeper is built: code that walks a body (and JSON.stringify) would overflow the stack.
  if (!jsonDepthWithin(bytes)) throw new ValidationError(`Body nests objects and arrays more than ${MAX_JSON_DEPTH} deep`);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ValidationError('Body is not valid JSON', 'invalid_json');
  }
  if (!isRecord(body)) throw new ValidationError('Body must be a JSON object');
  return { text, body };
}

/**
 * `application/json` or `application/<name>+json`, parameters after `;` aside. Anything else (`json-seq`,
 * a list such as a repeated header joined by commas) is not one JSON body: 415, not a guess.
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return /^application\/(?:[\w.-]+\+)?json$/.test(mediaTypeOf(contentType));
}
