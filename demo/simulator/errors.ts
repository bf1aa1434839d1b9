import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { isRecord } from '../../shared/records.js';

/**
 * An error the simulator answers as `{error:{code,message}}`. Routes and the engine throw it;
 * `errorResponse` (installed as the app's `onError`) is the one place that turns it into HTTP.
 */
export class SimError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'SimError';
  }
}

/** `onError` handler: known errors keep their status and code; anything else is a 500 without details. */
export function errorResponse(err: Error, c: Context): Response {
  if (err instanceof SimError) return c.json({ error: { code: err.code, message: err.message } }, err.status);
  return c.json({ error: { code: 'internal_error', message: 'The simulator failed unexpectedly' } }, 500);
}

/** Reads a JSON object body or throws a 400 that says what was wrong. */
export async function readJsonObject(c: Context): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw new SimError(400, 'invalid_json', 'The body must be valid JSON');
  }
  if (!isRecord(body)) throw new SimError(400, 'invalid_request', 'The body must be a JSON object');
  return body;
}
