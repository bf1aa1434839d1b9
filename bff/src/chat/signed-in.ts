import type { SessionResponse, SessionUser, StreamEvent } from '../../../shared/types.js';
import type { AppDeps } from '../context.js';
import { writeAccepted } from './accepted-writes.js';
import { markStartSent } from './send-once.js';
import { AuthError, ForbiddenError } from '../errors.js';
import type { VerifiedIdentity } from '../lib/identity.js';
import type { TokenUser } from '../lib/tokens.js';
import { titleFrom, type ConversationState } from '../ports/user-directory.js';

/** What a signed-in user's first or next message carries. */
export interface UserMessage {
  text: string;
  clientId?: string;
  /** The visitor's language, for a conversation this message starts. */
  locale?: string;
}

/** Verifies an identity token from a request body; `invalid_identity` when identity is not configured. */
export async function verifyIdentity(deps: Pick<AppDeps, 'identity'>, token: unknown): Promise<VerifiedIdentity> {
  if (!deps.identity) throw new AuthError('invalid_identity', 'This site does not accept identity tokens');
  return deps.identity.verify(token);
}

/** The user as tokens and responses carry it. */
export function tokenUser(identity: VerifiedIdentity): TokenUser {
  return { id: identity.userId, ...(identity.name !== undefined && { name: identity.name }), ...(identity.email !== undefined && { emailKnown: true as const }) };
}

/** Starts a conversation with the user's first message, sent upstream under their verified name, and binds it to them. */
export async function startUserConversation(deps: AppDeps, user: TokenUser, message: UserMessage): Promise<string> {
  const { conversationId } = await deps.chat.startConversation({ ...message, profileName: user.name });
  // A conversation id the service just created cannot belong to anyone yet. The service has it
  // now, so a store failure here is repaired rather than leaving the browser without it.
  await writeAccepted(deps.writes, `bind ${conversationId}`, () => deps.users.bind(user.id, conversationId, titleFrom(message.text)));
  await writeAccepted(deps.writes, `sent ${conversationId}`, () => markStartSent(deps, conversationId, message.clientId));
  return conversationId;
}

/**
 * Sends the user's verified id, email (`VERIFIED_VARIABLES`) and variables upstream (`PATCH
 * /v1/conversations/{id}/user`). It comes after the conversation is the user's (the message sent,
 * the binding made), so a refusal is logged, not answered: failing the request then would have the
 * widget send its message again, or keep the tokens from before a sign-in alive. The upstream
 * client has already retried what a retry can mend.
 */
export async function applyVerifiedVariables(deps: AppDeps, conversationId: string, identity: VerifiedIdentity): Promise<void> {
  // The site vouches for this address: the user's answers may reach them by email.
  if (identity.email !== undefined) await deps.continuity?.note(conversationId, { email: identity.email });
  try {
    await deps.chat.setUserVariables(conversationId, {
      ...identity.variables,
      verifiedUserId: identity.userId,
      ...(identity.email !== undefined && { verifiedEmail: identity.email }),
    });
  } catch (e) {
    deps.logger.error('the signed-in user\'s verified variables were not set upstream; the operator does not see them as verified', { conversationId, error: String(e) });
  }
}

/** Tokens for one of the user's conversations, with the user in the answer. */
export async function userSession(deps: AppDeps, conversationId: string, origin: string | undefined, user: TokenUser): Promise<SessionResponse & { user: SessionUser }> {
  return { sessionId: conversationId, ...(await deps.tokens.issue(conversationId, origin, user)), user: shownUser(user) };
}

/** The user as an answer shows them: `emailKnown` stays in the tokens; the browser is told who, not what the server keeps about them. */
export function shownUser(user: TokenUser): SessionUser {
  const { emailKnown: _, ...shown } = user;
  return shown;
}

/** Refuses a conversation of another user, or any other conversation for an anonymous token (`403 forbidden`). */
export async function requireOwnConversation(deps: AppDeps, user: TokenUser | undefined, conversationId: string): Promise<void> {
  if (!user || (await deps.users.ownerOf(conversationId)) !== user.id) {
    throw new ForbiddenError('forbidden', 'That conversation is not one of yours');
  }
}

/** The first thing the visitor wrote in a conversation, from its retained events; the title of a conversation claimed after a login. */
export async function firstUserText(deps: AppDeps, conversationId: string): Promise<string | undefined> {
  const events = await deps.store.read(conversationId, 0, 50);
  for (const e of events) {
    if (e.event === 'message' && e.data.role === 'user' && e.data.text) return e.data.text;
  }
  return undefined;
}

/**
 * Keeps a signed-in user's list in step with state changes that arrive by webhook (an operator
 * took over or archived): an archived conversation is not resumed on the next visit.
 */
export async function recordStateChange(deps: Pick<AppDeps, 'users'>, conversationId: string, event: StreamEvent): Promise<void> {
  let state: ConversationState | undefined;
  if (event.event === 'archived') state = 'archived';
  // The list says `open` where the stream says `active` (stored lists keep their word).
  else if (event.event === 'state') state = event.data.state === 'active' ? 'open' : event.data.state;
  if (!state) return;
  const owner = await deps.users.ownerOf(conversationId);
  if (owner !== undefined) await deps.users.touch(owner, conversationId, state);
}
