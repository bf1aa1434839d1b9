import { Hono } from 'hono';
import { PROACTIVE_MAX_LENGTH, type SessionResponse } from '../../../shared/types.js';
import type { AppDeps, AppEnv } from '../context.js';
import { applyVerifiedVariables, startUserConversation, tokenUser, userSession, verifyIdentity } from '../chat/signed-in.js';
import { AuthError, ForbiddenError, ValidationError } from '../errors.js';
import { rateLimit } from '../middleware.js';
import { clientIp, optionalString, readJsonObject, requireText } from '../lib/http.js';

const CLIENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `POST /api/session` (start or, for a signed-in user, resume a conversation) and `POST /api/token` (rotate a refresh token). */
export function sessionRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = deps;

  app.post('/api/session', async (c) => {
    const ip = clientIp(c, config.trustProxy);
    await rateLimit(deps, `session:${ip}`, config.rateLimitSessionsPerMin);
    const body = await readJsonObject(c, deps.config.bodyIdleTimeoutMs);
    const origin = c.req.header('origin');
    if (deps.identity && body.profileName !== undefined) {
      throw new ForbiddenError('identity_verified_only', 'Names come from the identity token on this site');
    }
    if (body.identityToken !== undefined) return c.json(await signedInSession(deps, body, origin), 201);
    if (config.identityRequired) throw new AuthError('identity_required', 'Sign in to chat');

    const text = requireText(body.text);
    const profileName = optionalString(body, 'profileName', 100);
    const clientId = optionalString(body, 'clientId', 64, CLIENT_ID);
    const context = optionalString(body, 'context', PROACTIVE_MAX_LENGTH);
    const { conversationId } = await deps.chat.startConversation({ text, profileName, clientId, context });
    const pair = await deps.tokens.issue(conversationId, origin);
    const response: SessionResponse = { sessionId: conversationId, ...pair };
    return c.json(response, 201);
  });

  app.post('/api/token', async (c) => {
    // Generous: a page refreshes once per token lifetime, but many tabs may share an IP.
    await rateLimit(deps, `token:${clientIp(c, config.trustProxy)}`, config.rateLimitSessionsPerMin * 10);
    const body = await readJsonObject(c, deps.config.bodyIdleTimeoutMs);
    if (typeof body.refreshToken !== 'string' || body.refreshToken.length > 4096) {
      throw new ValidationError('"refreshToken" must be a string');
    }
    return c.json(await deps.tokens.refresh(body.refreshToken, c.req.header('origin')));
  });

  return app;
}

/**
 * A session of a signed-in user: the identity token is verified before anything else happens.
 * The user's active conversation is resumed (a `text` is sent into it) or, with none, a new one
 * starts with `text`.
 */
async function signedInSession(deps: AppDeps, body: Record<string, unknown>, origin: string | undefined): Promise<SessionResponse> {
  const identity = await verifyIdentity(deps, body.identityToken);
  const text = body.text === undefined ? undefined : requireText(body.text);
  const clientId = optionalString(body, 'clientId', 64, CLIENT_ID);
  const user = tokenUser(identity);
  const active = await deps.users.activeOf(user.id);
  if (active === undefined) {
    const conversationId = await startUserConversation(deps, user, { text: requireText(text), clientId });
    await applyVerifiedVariables(deps, conversationId, identity);
    return userSession(deps, conversationId, origin, user);
  }
  // Its variables were set when it became the user's; a resume on every page load would repeat them.
  if (text !== undefined) {
    // Every path that sends text counts against the conversation's message limit, as POST /api/messages does.
    await rateLimit(deps, `messages:${active}`, deps.config.rateLimitMessagesPerMin);
    await deps.chat.sendMessage(active, { text, clientId, profileName: user.name });
    await deps.users.touch(user.id, active);
  }
  return userSession(deps, active, origin, user);
}
