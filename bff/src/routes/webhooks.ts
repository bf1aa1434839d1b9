import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context.js';
import { readRequestBody } from '../lib/body-read.js';
import { quickJson } from '../lib/node-response.js';
import { ingestWebhook, webhookBodyLimits } from './webhook-ingest.js';

/**
 * `POST /webhooks/agent` (docs/api.md "Webhooks") as a Hono route. Under Node the server answers this route
 * before Hono (`webhook-fast-path.ts`) with the same `ingestWebhook`; this route serves
 * `app.request()` and any runtime without Node's request.
 */
export function webhookRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const bodyLimits = webhookBodyLimits(deps);

  app.post('/webhooks/agent', async (c) => {
    const json = await ingestWebhook(deps, (maxBytes) => readRequestBody(c, maxBytes, bodyLimits), {
      requestId: c.get('requestId'),
      signature: c.req.header('x-service-signature'),
      timestamp: c.req.header('x-service-timestamp'),
    });
    return quickJson(c, json, { 'x-request-id': c.get('requestId') });
  });

  return app;
}
