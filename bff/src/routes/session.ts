import { Hono } from 'hono';
import type { SessionResponse } from '../../../shared/types.js';
import type { AppDeps, AppEnv } from '../context.js';
import { RateLimitError, ValidationError } from '../errors.js';
import { clientIp, optionalString, readJsonObject, requireText } from '../lib/http.js';

const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `POST /api/session` (start a conversation) and `POST /api/token` (rotate a refresh token). */
export function sessionRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = deps;

  app.post('/api/session', async (c) => {
    const ip = clientIp(c, config.trustProxy);
    await limit(deps, `session:${ip}`, config.rateLimitSessionsPerMin);
    const body = await readJsonObject(c);
    const text = requireText(body.text);
    const profileName = optionalString(body, 'profileName', 100);
    const clientId = optionalString(body, 'clientId', 64, CLIENT_ID);

    const { conversationId } = await deps.chat.startConversation({ text, profileName, clientId });
    const pair = await deps.tokens.issue(conversationId, c.req.header('origin'));
    const response: SessionResponse = { sessionId: conversationId, ...pair };
    return c.json(response, 201);
  });

  app.post('/api/token', async (c) => {
    // Generous: a page refreshes once per token lifetime, but many tabs may share an IP.
    await limit(deps, `token:${clientIp(c, config.trustProxy)}`, config.rateLimitSessionsPerMin * 10);
    const body = await readJsonObject(c);
    if (typeof body.refreshToken !== 'string' || body.refreshToken.length > 4096) {
      throw new ValidationError('"refreshToken" must be a string');
    }
    return c.json(await deps.tokens.refresh(body.refreshToken, c.req.header('origin')));
  });

  return app;
}

/** Counts one hit and throws `RateLimitError` (429 + Retry-After) when over the per-minute limit. */
export async function limit(deps: AppDeps, key: string, perMinute: number): Promise<void> {
  const result = await deps.rateLimiter.hit(key, perMinute, 60_000);
  if (!result.allowed) throw new RateLimitError(result.retryAfterSec);
}
