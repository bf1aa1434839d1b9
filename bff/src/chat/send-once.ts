import type { AppDeps } from '../context.js';
import type { SendMessageInput } from '../ports/chat-backend.js';

/** How long a sent message's clientId is remembered (a day: an outbox that lost its answer may retry after a long time offline). */
const SENT_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * Sends the visitor's message into an existing conversation, once per `clientId`: a browser whose
 * answer was lost sends the same message again under the same clientId, and once the service took
 * the first, the repeat does nothing (docs/design-choices.md, "A message sent twice"). Every route
 * that sends text into a conversation goes through here.
 */
export async function sendMessageOnce(deps: Pick<AppDeps, 'chat' | 'onceStore'>, conversationId: string, input: SendMessageInput): Promise<void> {
  const sent = input.clientId === undefined ? undefined : sentKey(conversationId, input.clientId);
  if (sent !== undefined && (await deps.onceStore.has(sent))) return;
  await deps.chat.sendMessage(conversationId, input);
  if (sent !== undefined) await deps.onceStore.mark(sent, SENT_TTL_MS);
}

/**
 * Remembers the first message of a conversation just started as sent: a signed-in visitor's
 * repeat of that start finds the conversation as the user's active one and resumes it with the
 * same text and clientId, which must not be sent a second time.
 */
export async function markStartSent(deps: Pick<AppDeps, 'onceStore'>, conversationId: string, clientId: string | undefined): Promise<void> {
  if (clientId !== undefined) await deps.onceStore.mark(sentKey(conversationId, clientId), SENT_TTL_MS);
}

const sentKey = (conversationId: string, clientId: string) => `sent:${conversationId}:${clientId}`;
