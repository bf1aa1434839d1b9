import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ErrorBody } from '../../shared/types.js';
import type { ErrorCode } from '../../shared/errors.js';
import type { AppDeps, AppEnv } from './context.js';
import { AppError, RequestAbortedError, STATUS_BY_CODE } from './errors.js';
import { requestLog, widgetCors } from './middleware.js';
import { conversationRoutes } from './routes/conversation.js';
import { engagementRoutes } from './routes/engagement.js';
import { eventRoutes } from './routes/events.js';
import { flowRoutes } from './routes/flows.js';
import { identityRoutes } from './routes/identity.js';
import { publicRoutes } from './routes/public.js';
import { sessionRoutes } from './routes/session.js';
import { webhookRoutes } from './routes/webhooks.js';

export type { AppDeps } from './context.js';

/** Builds the BFF's HTTP app from its dependencies. Reads no environment and opens no port. */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.use('*', requestLog(deps));
  app.use('/api/*', widgetCors(deps));
  app.route('/', publicRoutes(deps));
  app.route('/', webhookRoutes(deps));
  app.route('/', sessionRoutes(deps));
  app.route('/', conversationRoutes(deps));
  app.route('/', identityRoutes(deps));
  app.route('/', engagementRoutes(deps));
  app.route('/', eventRoutes(deps));
  app.route('/', flowRoutes(deps));

  app.notFound(() => {
    throw new AppError('not_found', 'No such route');
  });

  // The one place where errors become HTTP responses.
  app.onError((err, c) => {
    let code: ErrorCode = 'internal_error';
    let message = 'Something went wrong';
    let status = 500;
    if (err instanceof RequestAbortedError) {
      deps.logger.info('request body aborted', { requestId: c.get('requestId'), method: c.req.method, path: c.req.path, reason: err.message });
    }
    if (err instanceof AppError) {
      code = err.code;
      message = err.message;
      status = STATUS_BY_CODE[code];
      if (err.retryAfterSec !== undefined) c.header('retry-after', String(err.retryAfterSec));
      if (status >= 500) deps.logger.warn('request failed', { requestId: c.get('requestId'), code, cause: causeOf(err) });
    } else if (err instanceof HTTPException && err.status < 500) {
      status = err.status;
      code = status === 413 ? 'payload_too_large' : 'invalid_request';
      message = status === 413 ? 'Body too large' : 'Bad request';
    } else {
      deps.logger.error('unhandled error', { requestId: c.get('requestId'), error: err instanceof Error ? err.stack : String(err) });
    }
    const body: ErrorBody = { error: { code, message } };
    return c.json(body, status as 400);
  });

  return app;
}

function causeOf(err: Error): string | undefined {
  const cause = err.cause;
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : cause === undefined ? undefined : String(cause);
}
