import type { MiddlewareHandler } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { AppDeps, AppEnv } from './context.js';
import { AuthError, ForbiddenError, RateLimitError } from './errors.js';
import { featureOn, type FeatureName } from './features.js';
import { newRequestId } from './lib/request-id.js';
import type { SessionClaims } from './lib/tokens.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives every request an id (kept from `X-Request-Id` when well-formed) and logs one line per request. */
export function requestLog(deps: AppDeps): MiddlewareHandler<AppEnv> {
  const logRequest = requestLogger(deps);
  // Named: the webhook's fast path does this middleware's work itself, and a test matches the app's middleware by name.
  return async function requestLog(c, next) {
    const id = requestIdFrom(c.req.header('x-request-id'));
    c.set('requestId', id);
    // Set before next(): a header added after the response exists makes Hono rebuild it
    // around a stream body, which sends @hono/node-server down its slow path on every request.
    c.header('x-request-id', id);
    const started = performance.now();
    await next();
    logRequest?.(id, c.req.method, c.req.path, c.res.status, started);
  };
}

/** The request's id: its `X-Request-Id` when well-formed, else a new one (a UUIDv7, `lib/request-id.ts`). */
export function requestIdFrom(header: string | undefined): string {
  return header && REQUEST_ID.test(header) ? header : newRequestId();
}

/** Writes the one line per request at debug level; undefined (nothing to do) at any other level. */
export function requestLogger(deps: Pick<AppDeps, 'config' | 'logger'>) {
  if (deps.config.logLevel !== 'debug') return undefined;
  return (requestId: string, method: string, path: string, status: number, started: number) =>
    deps.logger.debug('request', { requestId, method, path: redactPath(path), status, ms: Math.round((performance.now() - started) * 100) / 100 });
}

// Flow tokens and bot keys travel in paths (`/webhook/{token}`, `/v1/bots/{bot_key}`); in demo
// mode the simulated service runs in this app, so its request lines must not show them.
const SECRET_PATH = /\/(webhook|bots)\/(?!test\/)[^/]+/g;

/** A request path safe to log. */
export function redactPath(path: string): string {
  return path.replace(SECRET_PATH, '/$1/[redacted]');
}

/**
 * True when `origin` may use the chat: the allowlist and the configured public origin decide.
 * Never `Host` or `X-Forwarded-Host`: any client can send those, and comparing them with the
 * `Origin` let a foreign page through by naming its own host.
 */
export function originAllowed(deps: AppDeps, origin: string): boolean {
  const list = deps.config.allowedOrigins;
  return list.includes('*') || list.includes(origin) || origin === deps.config.publicOrigin;
}

/** The token of an `Authorization: Bearer <token>` header; the scheme's name in any case (RFC 9110 §11.1), the token as sent. */
export function bearerToken(header: string | undefined): string | undefined {
  return /^bearer +(.+)$/i.exec(header?.trim() ?? '')?.[1];
}

/** A JWT's three base64url parts. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/**
 * What every `/api` answer says besides its body: no cache keeps it unless the route says how
 * (`/api/config`), since most carry tokens or a visitor's conversation, and no browser sniffs
 * another type into it. Errors too; not a stream already written to Node's response, which sets its own.
 */
export const apiAnswerHeaders: MiddlewareHandler<AppEnv> = async (c, next) => {
  await next();
  if (c.res === RESPONSE_ALREADY_SENT) return;
  const headers = c.res.headers;
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  headers.set('x-content-type-options', 'nosniff');
};

/**
 * CORS for the widget API: only allowlisted origins get CORS headers, and any request that
 * carries a foreign `Origin` is refused outright (403), so no conversation starts from it.
 */
export function widgetCors(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    // The answer depends on Origin even when none came (no CORS headers then), so a shared cache
    // must not hand that answer to a cross-origin request (/api/config is cacheable); the refusal
    // of a foreign site too.
    c.header('vary', 'Origin', { append: true });
    if (origin && !originAllowed(deps, origin)) {
      throw new ForbiddenError('origin_not_allowed', 'This site may not use the chat');
    }
    if (origin) {
      c.header('access-control-allow-origin', origin);
      c.header('access-control-expose-headers', 'Retry-After, X-Request-Id');
    }
    if (c.req.method === 'OPTIONS') {
      c.header('access-control-allow-methods', 'GET, POST, PATCH, OPTIONS');
      c.header('access-control-allow-headers', 'Authorization, Content-Type, Last-Event-ID, X-Request-Id');
      c.header('access-control-max-age', '600');
      return c.body(null, 204);
    }
    await next();
  };
}

/** A `Last-Event-ID` that a reconnect carries: the id of an event received, never 0. */
const RECONNECT_ID = /^[1-9]\d{0,14}$/;

/**
 * Verifies the bearer token and puts its claims on the context. Where `allowQuery` (the event
 * stream, which `EventSource` opens without headers): a single-use `?ticket=`, or for embeds from
 * before tickets a `?token=`, which is never logged. A ticket is only checked here: the route spends
 * it with `c.get('spendTicket')` once nothing else can refuse the request. Where `userToken` (routes of a user's own
 * conversations): also a user token, which sets `user` and no `session`; the route checks which it got.
 */
export function requireSession(deps: Pick<AppDeps, 'tokens'>, options: { allowQuery?: boolean; userToken?: boolean } = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const origin = c.req.header('origin');
    let token: string | undefined;
    if (header) {
      token = bearerToken(header);
      if (!token) throw new AuthError('invalid_token', 'Authorization must be "Bearer <token>"');
      if (!JWT_SHAPE.test(token)) throw new AuthError('invalid_token', 'The bearer token is not a session token (a JWT)');
    } else if (options.allowQuery) {
      const ticket = c.req.query('ticket');
      if (ticket) {
        // A reconnect resumes after an event it received: ids start at 1, so 0 or none asks for everything.
        const reconnecting = RECONNECT_ID.test(c.req.header('last-event-id') ?? c.req.query('lastEventId') ?? '');
        // Checked here, spent by the stream once its own checks passed: a 429 leaves the ticket for a retry.
        const { claims, spend } = await deps.tokens.checkTicket(ticket, origin, reconnecting);
        c.set('session', claims);
        c.set('spendTicket', spend);
        return next();
      }
      token = c.req.query('token') || undefined;
    }
    if (!token) throw new AuthError('unauthorized', 'A session token is required');
    if (options.userToken) {
      const { session, user } = await deps.tokens.verifyAccessOrUser(token, origin);
      if (session) c.set('session', session);
      c.set('user', user);
      return next();
    }
    c.set('session', await deps.tokens.verifyAccess(token, origin));
    await next();
  };
}

/**
 * Counts one hit on `key` and throws `RateLimitError` (429 + Retry-After) when over the
 * per-minute limit. Called inside handlers, since most keys name the conversation or client.
 */
export async function rateLimit(deps: AppDeps, key: string, perMinute: number): Promise<void> {
  const result = await deps.rateLimiter.hit(key, perMinute, 60_000);
  if (!result.allowed) throw new RateLimitError(result.retryAfterSec);
}

/**
 * History, variables, escalation, archive, feedback and stop share one allowance per conversation,
 * four times the message rate: each may cost the service or the store several calls, so none is unlimited.
 */
export function callAllowance(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // A user token (GET /api/messages?sessionId=) has no conversation of its own: the user's allowance.
    const session: SessionClaims | undefined = c.get('session');
    const key = session ? session.conversationId : `user:${c.get('user')?.id}`;
    await rateLimit(deps, `calls:${key}`, deps.config.rateLimitMessagesPerMin * 4);
    await next();
  };
}

const FEATURE_OFF: Record<FeatureName, string> = {
  escalation: 'Talking to a person is not available here',
  upload: 'File uploads are not available here',
  flows: 'Flows are not available here',
  stop: 'Only a model reply can be stopped',
};

/** Refuses the route with `403 feature_disabled` when this deployment does not offer `name` (see features.ts). */
export function requireFeature(deps: AppDeps, name: FeatureName): MiddlewareHandler<AppEnv> {
  return async (_c, next) => {
    if (!featureOn(deps, name)) throw new ForbiddenError('feature_disabled', FEATURE_OFF[name]);
    await next();
  };
}
