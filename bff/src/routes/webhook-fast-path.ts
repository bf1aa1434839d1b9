import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AppDeps } from '../context.js';
import { errorAnswer } from '../error-response.js';
import type { BodyLimits } from '../lib/body-limits.js';
import { BodyRead } from '../lib/body-read.js';
import { requestIdFrom, requestLogger } from '../middleware.js';
import { ingestBody, MAX_WEBHOOK_BYTES, webhookBodyLimits, webhookReadFailed, webhookShapesOf, type WebhookShapes } from './webhook-ingest.js';

const PATH = '/webhooks/agent';

/**
 * The app's middleware on `POST /webhooks/agent` (by function name) whose work this path does itself.
 * A test compares it with what `app.ts` registers: middleware added there that would reach the
 * webhook must be added here too, or the fast path would skip it unseen.
 */
export const REPRODUCED_MIDDLEWARE: readonly string[] = ['requestLog'];

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
  const route = new FastRoute(deps);
  return (req, res) => {
    if (req.method !== 'POST' || !isWebhookPath(req.url)) return next(req, res);
    new WebhookExchange(route, req, res, requestIdFrom(header(req, 'x-request-id')), performance.now()).startInCheckPhase();
  };
}

/** What every webhook on the fast path shares: the app's parts, and how an answer is written. */
class FastRoute {
  readonly logRequest: ReturnType<typeof requestLogger>;
  readonly bodyLimits: BodyLimits;
  readonly shapes: WebhookShapes;

  constructor(readonly deps: AppDeps) {
    this.logRequest = requestLogger(deps);
    this.bodyLimits = webhookBodyLimits(deps);
    this.shapes = webhookShapesOf(deps);
  }

  /** Writes the answer; anything thrown here is the response's own failure. */
  send(res: ServerResponse, requestId: string, started: number, status: number, json: string, retryAfterSec?: number): void {
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': requestId, 'content-length': String(Buffer.byteLength(json)) };
    if (retryAfterSec !== undefined) headers['retry-after'] = String(retryAfterSec);
    res.writeHead(status, headers).end(json);
    this.logRequest?.(requestId, 'POST', PATH, status, started);
  }

  refuse(res: ServerResponse, requestId: string, started: number, err: unknown): void {
    const failed = errorAnswer(err, this.deps.logger, { requestId, method: 'POST', path: PATH });
    this.send(res, requestId, started, failed.status, JSON.stringify(failed.body), failed.retryAfterSec);
  }

  unwritten(res: ServerResponse, err: unknown): void {
    // Only writing the answer itself can land here; the connection is all that is left to close.
    this.deps.logger.error('webhook answer not written', { error: err instanceof Error ? err.stack : String(err) });
    res.destroy();
  }
}

/**
 * One webhook on the fast path: its body read, then its answer. The body is taken in the event
 * loop's check phase (`BodyRead.startInCheckPhase`): webhooks that arrive together are parsed
 * first and answered together, and one that came whole with its headers is read without stream
 * events; together 1.10–1.13× as many webhooks per second of CPU (docs/benchmarks.md). No promise
 * until the store's append and no closure per request: the body comes to `finish` and the checks
 * before the store are synchronous (a promise chain, and then closures, per webhook showed in the
 * profile).
 */
class WebhookExchange extends BodyRead {
  constructor(
    private readonly route: FastRoute,
    req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly requestId: string,
    private readonly started: number,
  ) {
    super(req, MAX_WEBHOOK_BYTES, route.bodyLimits);
  }

  protected finish(readError: Error | undefined, raw?: Buffer): void {
    const { route, incoming, res, requestId, started } = this;
    try {
      let answer: string | Promise<string>;
      try {
        answer = readError
          ? webhookReadFailed(route.deps, started, readError)
          : ingestBody(route.deps, raw!, { requestId, signature: header(incoming, 'x-service-signature'), timestamp: header(incoming, 'x-service-timestamp') }, started, route.shapes);
      } catch (err) {
        return route.refuse(res, requestId, started, err);
      }
      if (typeof answer === 'string') return route.send(res, requestId, started, 200, answer);
      // Each handler catches its own failure: a `.catch` after the `.then` is one more promise per webhook.
      answer.then(
        (json) => {
          try {
            route.send(res, requestId, started, 200, json);
          } catch (err) {
            route.unwritten(res, err);
          }
        },
        (err: unknown) => {
          try {
            route.refuse(res, requestId, started, err);
          } catch (failed) {
            route.unwritten(res, failed);
          }
        },
      );
    } catch (err) {
      route.unwritten(res, err);
    }
  }
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
