import { Hono, type MiddlewareHandler } from 'hono';
import { optionalString } from '../../../shared/bodies.js';
import type { MessagesPage } from '../../../shared/types.js';
import type { AppDeps, AppEnv } from '../context.js';
import type { SessionClaims } from '../lib/tokens.js';
import { requireOwnConversation } from '../chat/signed-in.js';
import { ForbiddenError, ValidationError } from '../errors.js';
import { checkBody } from '../lib/body.js';
import { withVotes } from '../chat/feedback-log.js';
import { withAuthors } from '../chat/remembered-authors.js';
import { sendMessageOnce } from '../chat/send-once.js';
import { callAllowance, rateLimit, requireFeature } from '../middleware.js';
import { routeMounter } from './mount.js';

// The service's own maximum is not documented; one more than this is asked for to learn hasMore.
const MAX_PAGE = 50;

/** Authenticated routes of one conversation; the conversation comes from the token alone. */
export function conversationRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = deps;
  const route = routeMounter(app, deps);
  const calls = callAllowance(deps);

  const limitMessages: MiddlewareHandler<AppEnv> = async (c, next) => {
    await rateLimit(deps, `messages:${c.get('session').conversationId}`, config.rateLimitMessagesPerMin);
    await next();
  };

  route('POST /api/messages', [limitMessages], async (c) => {
    const { conversationId, user } = c.get('session');
    const { text, clientId } = c.req.valid('json');
    // A repeat of a message the service took (its answer was lost) is answered as the first was, not sent again.
    await sendMessageOnce(deps, conversationId, { text, clientId, profileName: user?.name });
    if (user) await deps.users.touch(user.id, conversationId);
    return c.json({}, 202);
  });

  route('GET /api/messages', [calls], async (c) => {
    const pageSize = queryInt(c.req.query('limit'), 'limit', 20, 1, MAX_PAGE);
    const offset = queryInt(c.req.query('offset'), 'offset', 0, 0, 1_000_000);
    // Unset for a user token (a signed-in user with no open conversation), which reads only by sessionId.
    const session: SessionClaims | undefined = c.get('session');
    // Another conversation of the same signed-in user may be read (not written): its history.
    const requested = checkBody(optionalString('sessionId', 128), c.req.query('sessionId'));
    if (requested !== undefined && requested !== session?.conversationId) await requireOwnConversation(deps, c.get('user'), requested);
    const conversationId = requested ?? session?.conversationId;
    if (conversationId === undefined) throw new ForbiddenError('forbidden', 'Name one of your conversations: sessionId');
    const page = await deps.chat.listMessages(conversationId, pageSize, offset);
    const items = await withVotes(deps.store, conversationId, await withAuthors(deps.store, conversationId, page.items));
    const response: MessagesPage = { items, limit: pageSize, offset, hasMore: page.hasMore };
    return c.json(response);
  });

  // Before the body is read: on a site with identity tokens no variable is the browser's to set.
  const browserVariables: MiddlewareHandler<AppEnv> = async (_c, next) => {
    if (deps.identity) throw new ForbiddenError('identity_verified_only', 'User variables come from the identity token on this site');
    await next();
  };
  route('PATCH /api/user', [calls, browserVariables], async (c) => {
    await deps.chat.setUserVariables(c.get('session').conversationId, c.req.valid('json'));
    return c.body(null, 204);
  });

  route('POST /api/escalate', [calls, requireFeature(deps, 'escalation')], async (c) => {
    const { conversationId, user } = c.get('session');
    await deps.chat.escalate(conversationId);
    if (user) await deps.users.touch(user.id, conversationId, 'escalated');
    return c.json({}, 202);
  });

  route('POST /api/archive', [calls], async (c) => {
    const { conversationId, user } = c.get('session');
    await deps.chat.archive(conversationId);
    if (user) await deps.users.touch(user.id, conversationId, 'archived');
    return c.json({}, 202);
  });

  return app;
}

function queryInt(raw: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ValidationError(`"${name}" must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}
