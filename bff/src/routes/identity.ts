import { Hono, type MiddlewareHandler } from 'hono';
import type { ConversationsList, IdentifyResponse } from '../../../shared/types.js';
import {
  applyVerifiedVariables,
  firstUserText,
  startUserConversation,
  tokenUser,
  userSession,
  verifyIdentity,
} from '../chat/signed-in.js';
import type { AppDeps, AppEnv } from '../context.js';
import { AppError, AuthError, ForbiddenError } from '../errors.js';
import { withLastMessages } from '../chat/last-message.js';
import { startKeyOf, startOnce } from '../chat/start-once.js';
import { clientIp } from '../lib/client-ip.js';
import { checkPageUrl, notePage } from '../email/page-url.js';
import type { TokenUser } from '../lib/tokens.js';
import { rateLimit } from '../middleware.js';
import { routeMounter } from './mount.js';

/** Signed-in users (docs/api.md "Signed-in users"): identify after a login, list the user's conversations, start another. */
export function identityRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = deps;
  // A signed-in user with no open conversation holds a user token (POST /api/session without text): `sessionOrUser` in the table.
  const route = routeMounter(app, deps);

  const limitSessions: MiddlewareHandler<AppEnv> = async (c, next) => {
    await rateLimit(deps, `session:${clientIp(c, config.trustProxy)}`, config.rateLimitSessionsPerMin);
    await next();
  };

  route('POST /api/identify', [limitSessions], async (c) => {
    const body = c.req.valid('json');
    const identity = await verifyIdentity(deps, body.identityToken);
    const user = tokenUser(identity);
    const session = c.get('session');
    const origin = c.req.header('origin');
    if (session.user && session.user.id !== user.id) {
      throw new ForbiddenError('forbidden', 'This conversation belongs to another user; reset the chat first');
    }
    const active = await deps.users.activeOf(user.id);
    let switched = false;
    let conversationId = session.conversationId;
    if (active !== undefined && active !== session.conversationId) {
      conversationId = active;
      switched = true;
    } else {
      const title = (await firstUserText(deps, conversationId)) ?? '…';
      if (!(await deps.users.bind(user.id, conversationId, title))) {
        throw new ForbiddenError('forbidden', 'This conversation belongs to another user; reset the chat first');
      }
    }
    await applyVerifiedVariables(deps, conversationId, identity);
    const response: IdentifyResponse = { ...(await userSession(deps, conversationId, origin, user)), switched };
    // Tokens from before the sign-in must not follow the visitor into the account: someone who
    // planted or copied them would read the user's conversation. Only the pair answered here works on.
    await deps.tokens.revoke(session);
    return c.json(response);
  });

  route('GET /api/conversations', [], async (c) => {
    const user = signedIn(c.get('user'));
    const response: ConversationsList = { items: await withLastMessages(deps, await deps.users.list(user.id)) };
    return c.json(response);
  });

  route('POST /api/conversations', [limitSessions], async (c) => {
    let user = signedIn(c.get('user'));
    const body = c.req.valid('json');
    const pageUrl = checkPageUrl(deps, body.pageUrl);
    // The token carries no variables: a fresh identity token, when the widget has one, brings them.
    const identity = body.identityToken === undefined ? undefined : await verifyIdentity(deps, body.identityToken);
    if (identity && identity.userId !== user.id) throw new AuthError('invalid_identity', 'The identity token is of another user');
    if (identity) user = tokenUser(identity);
    const { text, clientId, locale } = body;
    const origin = c.req.header('origin');
    const { conversationId } = await startOnce(deps, startKeyOf(body, origin, user.id), async () => {
      const conversationId = await startUserConversation(deps, user, { text, clientId, locale });
      if (identity) await applyVerifiedVariables(deps, conversationId, identity);
      return { conversationId };
    });
    await notePage(deps, conversationId, pageUrl, locale);
    return c.json(await userSession(deps, conversationId, origin, user), 201);
  });

  // Continue an open conversation of the user from this device (docs/api.md "Signed-in users"): it becomes
  // the user's active one, so every tab and device that resumes follows it; an archived one stays read-only.
  route('POST /api/conversations/:sessionId/current', [], async (c) => {
    const user = signedIn(c.get('user'));
    const conversationId = c.req.param('sessionId');
    if ((await deps.users.ownerOf(conversationId)) !== user.id) throw new ForbiddenError('forbidden', 'This conversation is not yours');
    const entry = (await deps.users.list(user.id)).find((e) => e.sessionId === conversationId);
    if (!entry || entry.state === 'archived') throw new AppError('conversation_archived', 'This conversation is closed; it stays readable');
    await deps.users.touch(user.id, conversationId);
    return c.json(await userSession(deps, conversationId, c.req.header('origin'), user));
  });

  return app;
}

/** The token's user; anonymous tokens never list or start a user's conversations. */
function signedIn(user: TokenUser | undefined): TokenUser {
  if (!user) throw new ForbiddenError('forbidden', 'Sign in to see your conversations');
  return user;
}
