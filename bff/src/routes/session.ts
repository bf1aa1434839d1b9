import { randomUUID } from 'node:crypto';
import { Hono, type MiddlewareHandler } from 'hono';
import type * as v from 'valibot';
import { TEXT_MISSING, type SessionBody } from '../../../shared/bodies.js';
import type { SessionResponse, UserTokenResponse } from '../../../shared/types.js';
import type { AppDeps, AppEnv } from '../context.js';
import { applyVerifiedVariables, shownUser, startUserConversation, tokenUser, userSession, verifyIdentity } from '../chat/signed-in.js';
import { sendMessageOnce } from '../chat/send-once.js';
import { startKeyOf, startOnce } from '../chat/start-once.js';
import { AuthError, ForbiddenError } from '../errors.js';
import { featureOn } from '../features.js';
import { rateLimit } from '../middleware.js';
import { bodyError } from '../lib/body.js';
import { routeMounter } from './mount.js';
import { clientIp } from '../lib/client-ip.js';
import { checkPageUrl, notePage } from '../email/page-url.js';

/** `POST /api/session` (start or, for a signed-in user, resume a conversation) and `POST /api/token` (rotate a refresh token). */
export function sessionRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = deps;

  const limitSessions: MiddlewareHandler<AppEnv> = async (c, next) => {
    await rateLimit(deps, `session:${clientIp(c, config.trustProxy)}`, config.rateLimitSessionsPerMin);
    await next();
  };
  // Generous: a page refreshes once per token lifetime, but many tabs may share an IP.
  const limitRefreshes: MiddlewareHandler<AppEnv> = async (c, next) => {
    await rateLimit(deps, `token:${clientIp(c, config.trustProxy)}`, config.rateLimitSessionsPerMin * 10);
    await next();
  };
  const route = routeMounter(app, deps);

  route('POST /api/session', [limitSessions], async (c) => {
    const body = c.req.valid('json');
    const origin = c.req.header('origin');
    const pageUrl = checkPageUrl(deps, body.pageUrl);
    if (deps.identity && body.profileName !== undefined) {
      throw new ForbiddenError('identity_verified_only', 'Names come from the identity token on this site');
    }
    if (body.identityToken !== undefined) {
      const session = await signedInSession(deps, body, origin);
      if ('sessionId' in session) await notePage(deps, session.sessionId, pageUrl, body.locale);
      // Nothing was created for a user token: 200.
      return c.json(session, 'sessionId' in session ? 201 : 200);
    }
    if (config.identityRequired) throw new AuthError('identity_required', 'Sign in to chat');

    const { text, profileName, clientId, context, locale, startKey } = body;
    if (text === undefined) throw bodyError(TEXT_MISSING);
    const { conversationId, chainId, ...state } = await startOnce(
      deps,
      startKeyOf({ startKey, text }, origin),
      async () => {
        const { conversationId } = await deps.chat.startConversation({ text, profileName, clientId, context, locale });
        return { conversationId, chainId: randomUUID(), ...(await escalated(deps, conversationId, body.escalate)) };
      },
      // A repeat's tokens join the first try's chain, so a sign-in (which revokes it) or a theft
      // ends them too, even one issued while the sign-in runs.
      async (started) => (started.chainId === undefined || !(await deps.tokens.chainEnded(started.chainId))) && (await deps.users.ownerOf(started.conversationId)) === undefined,
    );
    await notePage(deps, conversationId, pageUrl, locale);
    const pair = await deps.tokens.issue(conversationId, origin, undefined, chainId);
    const response: SessionResponse = { sessionId: conversationId, ...pair, ...state };
    return c.json(response, 201);
  });

  route('POST /api/token', [limitRefreshes], async (c) => {
    return c.json(await deps.tokens.refresh(c.req.valid('json').refreshToken, c.req.header('origin')));
  });

  return app;
}

/**
 * A session of a signed-in user: the identity token is verified before anything else happens.
 * The user's active conversation is resumed (a `text` is sent into it) or, with none, a new one
 * starts with `text`; with neither, a user token lets them see their conversations.
 */
async function signedInSession(deps: AppDeps, body: v.InferOutput<typeof SessionBody>, origin: string | undefined): Promise<SessionResponse | UserTokenResponse> {
  const identity = await verifyIdentity(deps, body.identityToken);
  const { text, clientId, locale } = body;
  const user = tokenUser(identity);
  const active = await deps.users.activeOf(user.id);
  if (active === undefined) {
    if (text === undefined) return { ...(await deps.tokens.issueUser(user, origin)), user: shownUser(user) };
    // A repeat that comes once the first try made the conversation the user's active one resumes
    // it below, where the first message's clientId is known as sent.
    const { conversationId, ...state } = await startOnce(deps, startKeyOf({ startKey: body.startKey, text }, origin, user.id), async () => {
      const conversationId = await startUserConversation(deps, user, { text, clientId, locale });
      const state = await escalated(deps, conversationId, body.escalate, user.id);
      await applyVerifiedVariables(deps, conversationId, identity);
      return { conversationId, ...state };
    });
    return { ...(await userSession(deps, conversationId, origin, user)), ...state };
  }
  // Its variables were set when it became the user's; a resume on every page load would repeat them.
  if (text !== undefined) {
    // Every path that sends text counts against the conversation's message limit, as POST /api/messages does.
    await rateLimit(deps, `messages:${active}`, deps.config.rateLimitMessagesPerMin);
    await sendMessageOnce(deps, active, { text, clientId, profileName: user.name });
    await deps.users.touch(user.id, active);
  }
  const state = await escalated(deps, active, body.escalate, user.id);
  return { ...(await userSession(deps, active, origin, user)), ...state };
}

/**
 * "Talk to a person" before the first message (`escalate: true`): the conversation goes to a person
 * in the request that starts it, so the agent is not asked to answer first. Where escalation is off,
 * or the service refuses it, the session still stands (its message is sent) and the answer says
 * nothing; the widget then asks with POST /api/escalate, which reports why.
 */
async function escalated(deps: AppDeps, conversationId: string, asked: boolean | undefined, userId?: string): Promise<{ state?: 'escalated' }> {
  if (!asked || !featureOn(deps, 'escalation')) return {};
  try {
    await deps.chat.escalate(conversationId);
  } catch (e) {
    deps.logger.warn('escalation at session start failed; the widget asks again', { conversationId, error: String(e) });
    return {};
  }
  // A signed-in user's list shows the conversation with a person, as after POST /api/escalate.
  if (userId !== undefined) await deps.users.touch(userId, conversationId, 'escalated');
  return { state: 'escalated' };
}

