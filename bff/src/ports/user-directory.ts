import type { ConversationSummary } from '../../../shared/types.js';

/** Where a conversation of a signed-in user stands, as the conversations list shows it. */
export type ConversationState = ConversationSummary['state'];

/** One entry of a user's conversations list (docs/api.md "Signed-in users", `GET /api/conversations`). */
export type UserConversation = ConversationSummary;

/**
 * Which conversations belong to which signed-in user (docs/api.md "Signed-in users"). A conversation belongs to at most
 * one user, for good: the first `bind` wins. Adapters throw `StoreUnavailableError` when their
 * backing store cannot be reached.
 */
export interface UserDirectory {
  /**
   * Binds a conversation to a user and makes it the user's active one. Resolves `false`, changing
   * nothing, when the conversation already belongs to another user.
   */
  bind(userId: string, conversationId: string, title: string): Promise<boolean>;
  /** The user a conversation belongs to, if any. */
  ownerOf(conversationId: string): Promise<string | undefined>;
  /** The user's active conversation: the one bound or used last, unless it was archived since. */
  activeOf(userId: string): Promise<string | undefined>;
  /**
   * Records activity in one of the user's conversations (its `updatedAt` becomes now) and, with
   * `state`, its new state; it becomes the active one, or stops being it when archived.
   * Does nothing for a conversation that is not the user's.
   */
  touch(userId: string, conversationId: string, state?: ConversationState): Promise<void>;
  /** Every conversation of the user, newest `updatedAt` first. */
  list(userId: string): Promise<UserConversation[]>;
}

/** Longest title kept for a conversation (its first message). */
export const MAX_TITLE_LENGTH = 80;

/** A conversation's title from its first message: one line, at most `MAX_TITLE_LENGTH` characters. */
export function titleFrom(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  const chars = [...line];
  return chars.length <= MAX_TITLE_LENGTH ? line : `${chars.slice(0, MAX_TITLE_LENGTH - 1).join('')}…`;
}
