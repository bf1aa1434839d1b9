// Node's own response under @hono/node-server, for answers written without a web `Response`.
import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';

/** Node's own response under @hono/node-server; undefined elsewhere (e.g. `app.request()` in tests). */
export function nodeResponse(c: Context): ServerResponse | undefined {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  return outgoing && typeof outgoing === 'object' && 'writeHead' in outgoing ? (outgoing as ServerResponse) : undefined;
}

/**
 * A small JSON answer for a hot path, written straight onto Node's response when there is one.
 * Building a web `Response` for node-server to copy back out cost more than the webhook's own
 * work (measured with the benchmark's Hono twin). Headers set on `c` do not apply: pass them.
 */
export function quickJson(c: Context, json: string, headers: Record<string, string>): Response {
  const res = nodeResponse(c);
  if (!res) return c.body(json, 200, { 'content-type': 'application/json', ...headers });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(json)), ...headers });
  res.end(json);
  return RESPONSE_ALREADY_SENT;
}
