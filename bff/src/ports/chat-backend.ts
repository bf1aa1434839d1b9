import type { Message } from '../../../shared/types.js';
import type { VariableValue } from './upstream.js';

export interface StartInput {
  text: string;
  profileName?: string;
  clientId?: string;
  /** The proactive message the visitor answered (`Parley('show', text)`), as context for the reply. */
  context?: string;
  /** The visitor's language (a BCP 47 tag); agent mode sends it as the `LOCALE_VARIABLE` user variable. */
  locale?: string;
}

export interface SendMessageInput {
  text: string;
  clientId?: string;
  /** The signed-in user's verified name, sent upstream with every message (docs/api.md "Signed-in users"). */
  profileName?: string;
}

/**
 * What the widget routes need from "the other side of the chat": the agent (area B, replies
 * arrive by webhook) or a model (area A, the BFF streams the reply itself). Routes are the same.
 */
export interface ChatBackend {
  readonly mode: 'agent' | 'model';
  /** Creates a conversation with its first user message; the id becomes the token's `sub`. */
  startConversation(input: StartInput): Promise<{ conversationId: string; message: Message }>;
  /** Sends a user message; resolves once it is accepted and published to the stream. */
  sendMessage(conversationId: string, input: SendMessageInput): Promise<Message>;
  /** One page of history, newest page at offset 0, items oldest first. */
  listMessages(conversationId: string, limit: number, offset: number): Promise<{ items: Message[]; hasMore: boolean }>;
  setUserVariables(conversationId: string, variables: Record<string, VariableValue>): Promise<void>;
  escalate(conversationId: string): Promise<void>;
  archive(conversationId: string): Promise<void>;
  /**
   * Stops the reply being written in the conversation, on whichever instance writes it (model
   * mode only; absent in agent mode). Resolves once the stop is sent, not once the reply ended.
   */
  stop?(conversationId: string): Promise<void>;
  /** Ends the backend's own work in progress (model replies being written); called once on shutdown. */
  close(): Promise<void>;
}
