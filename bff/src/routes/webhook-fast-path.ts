import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AppDeps } from '../context.js';
import { errorAnswer } from '../error-response.js';
import { readIncomingBody } from '../lib/http.js';
import { requestIdFrom, requestLogger } from '../middleware.js';
import { ingestWebhook, webhookBodyLimits } from './webhook-ingest.js';

const PATH = '/webhooks/agent';

/**
 * Answers `POST /webhooks/agent` on Node's request and response, and hands every other request
 * to `next` (the Hono app). The webhook is the one route called at the upstream service's
 * rate, and Hono's request, context, router, middleware chain and response cost more than the
 * webhook's own work (docs/benchmarks.md). This path does what the app does for the route,
 * no more and no less: the request id and the debug line of `requestLog` (the app's only
 * middleware on this path), `ingestWebhook`, and errors through `errorAnswer`. A test holds both
 * paths to the same answers.
 */
export function withWebhookFastPath(deps: AppDeps, next: RequestListener): RequestListener {
  const logRequest = requestLogger(deps);
  const bodyLimits = webhookBodyLimits(deps);

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = requestIdFrom(header(req, 'x-request-id'));
    let status = 200;
    let json: string;
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': requestId };
    try {
      json = await ingestWebhook(deps, (maxBytes) => readIncomingBody(req, maxBytes, bodyLimits), {
        requestId,
        signature: header(req, 'x-service-signature'),
        timestamp: header(req, 'x-service-timestamp'),
      });
    } catch (err) {
      const failed = errorAnswer(err, deps.logger, { requestId, method: 'POST', path: PATH });
      status = failed.status;
      json = JSON.stringify(failed.body);
      if (failed.retryAfterSec !== undefined) headers['retry-after'] = String(failed.retryAfterSec);
    }
    headers['content-length'] = String(Buffer.byteLength(json));
    res.writeHead(status, headers).end(json);
    logRequest?.(requestId, 'POST', PATH, status, started);
  }

  return (req, res) => {
    if (req.method !== 'POST' || !isWebhookPath(req.url)) return next(req, res);
    answer(req, res).catch((err: unknown) => {
      // Only writing the answer itself can land here; the connection is all that is left to close.
      deps.logger.error('webhook answer not written', { error: err instanceof Error ? err.stack : String(err) });
      res.destroy();
    });
  };
}

/** The route's path, with or without a query string (as Hono matches it). */
function isWebhookPath(url: string | undefined): boolean {
  return url !== undefined && url.startsWith(PATH) && (url.length === PATH.length || url[PATH.length] === '?');
}

/** A header as web `Headers` would give it: repeated ones joined (Node joins all but a few), absent as undefined. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
