import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AppDeps } from '../context.js';
import { errorAnswer } from '../error-response.js';
import { takeIncomingBody } from '../lib/http.js';
import { requestIdFrom, requestLogger } from '../middleware.js';
import { ingestBody, MAX_WEBHOOK_BYTES, webhookBodyLimits, webhookReadFailed } from './webhook-ingest.js';

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

  /** Writes the answer; anything thrown here is the response's own failure. */
  function send(res: ServerResponse, requestId: string, started: number, status: number, json: string, retryAfterSec?: number): void {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': requestId, 'content-length': String(Buffer.byteLength(json)) };
    if (retryAfterSec !== undefined) headers['retry-after'] = String(retryAfterSec);
    res.writeHead(status, headers).end(json);
    logRequest?.(requestId, 'POST', PATH, status, started);
  }

  function refuse(res: ServerResponse, requestId: string, started: number, err: unknown): void {
    const failed = errorAnswer(err, deps.logger, { requestId, method: 'POST', path: PATH });
    send(res, requestId, started, failed.status, JSON.stringify(failed.body), failed.retryAfterSec);
  }

  function unwritten(res: ServerResponse, err: unknown): void {
    // Only writing the answer itself can land here; the connection is all that is left to close.
    deps.logger.error('webhook answer not written', { error: err instanceof Error ? err.stack : String(err) });
    res.destroy();
  }

  // No promise until the store's append: the body comes by callback and the checks before the
  // store are synchronous (a promise chain per webhook showed in the profile, docs/benchmarks.md).
  return (req, res) => {
    if (req.method !== 'POST' || !isWebhookPath(req.url)) return next(req, res);
    const started = performance.now();
    const requestId = requestIdFrom(header(req, 'x-request-id'));
    takeIncomingBody(req, MAX_WEBHOOK_BYTES, bodyLimits, (readError, raw) => {
      try {
        let answer: string | Promise<string>;
        try {
          answer = readError
            ? webhookReadFailed(deps, started, readError)
            : ingestBody(deps, raw!, { requestId, signature: header(req, 'x-service-signature'), timestamp: header(req, 'x-service-timestamp') }, started);
        } catch (err) {
          return refuse(res, requestId, started, err);
        }
        if (typeof answer === 'string') return send(res, requestId, started, 200, answer);
        // Each handler catches its own failure: a `.catch` after the `.then` is one more promise per webhook.
        answer.then(
          (json) => {
            try {
              send(res, requestId, started, 200, json);
            } catch (err) {
              unwritten(res, err);
            }
          },
          (err: unknown) => {
            try {
              refuse(res, requestId, started, err);
            } catch (failed) {
              unwritten(res, failed);
            }
          },
        );
      } catch (err) {
        unwritten(res, err);
      }
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
