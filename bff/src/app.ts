import { Hono } from 'hono';
import type { AppDeps, AppEnv } from './context.js';
import { errorAnswer } from './error-response.js';
import { AppError } from './errors.js';
import { apiAnswerHeaders, requestLog, widgetCors } from './middleware.js';
import { conversationRoutes } from './routes/conversation.js';
import { engagementRoutes } from './routes/engagement.js';
import { csatRoutes } from './routes/csat.js';
import { contactRoutes } from './routes/contact.js';
import { emailRoutes } from './routes/email.js';
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
  app.use('/api/*', apiAnswerHeaders, widgetCors(deps));
  app.route('/', publicRoutes(deps));
  app.route('/', webhookRoutes(deps));
  app.route('/', sessionRoutes(deps));
  app.route('/', conversationRoutes(deps));
  app.route('/', identityRoutes(deps));
  app.route('/', engagementRoutes(deps));
  app.route('/', csatRoutes(deps));
  app.route('/', contactRoutes(deps));
  app.route('/', eventRoutes(deps));
  app.route('/', flowRoutes(deps));
  app.route('/', emailRoutes(deps));

  app.notFound(() => {
    throw new AppError('not_found', 'No such route');
  });

  app.onError((err, c) => {
    const answer = errorAnswer(err, deps.logger, { requestId: c.get('requestId'), method: c.req.method, path: c.req.path });
    if (answer.retryAfterSec !== undefined) c.header('retry-after', String(answer.retryAfterSec));
    return c.json(answer.body, answer.status as 400);
  });

  return app;
}

