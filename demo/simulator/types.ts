/** Shapes the simulator keeps in memory and sends on the wire (area B of the service interface). */

/** Sender of a message, as the service names it (`data.hbo`). */
export type Hbo = 'bot' | 'user' | 'operator';

/** The seed names only `escalated` and an archived condition; `active` is our name for "neither". */
export type ConversationState = 'active' | 'escalated' | 'archived';

/** One message of a conversation, in the history item shape the simulator answers with. */
export interface StoredMessage {
  /** Integer or string: the seed allows both, so the simulator mixes them. */
  messageId: number | string;
  message: string;
  hbo: Hbo;
  /** Epoch milliseconds. */
  createdAt: number;
  username?: string;
  userId?: number;
}

export interface Conversation {
  id: number;
  state: ConversationState;
  profileName?: string;
  isTestChat: boolean;
  /** Per-request `webhookUrl` from the latest send that carried one (local testing only). */
  webhookUrl?: string;
  /** Where the escalation went (the team's address, or the operator's who took it over). */
  operatorEmail?: string;
  /** The operator (username) who has the conversation: who took it over, else who answered first. */
  operatorName?: string;
  createdAt: number;
  updatedAt: number;
  /** Oldest first. */
  messages: StoredMessage[];
  variables: Record<string, VariableValue>;
  /** User messages the operator console has not opened yet. */
  unread: number;
}

export type VariableValue = string | number | boolean;

export type EventKind =
  | 'message.added'
  | 'conversation.created'
  | 'conversation.state_changed'
  | 'conversation.archived'
  | 'user.variables.updated';

/** The webhook envelope as POSTed to the integrator. */
export interface WebhookEnvelope {
  event: EventKind;
  eventId: string;
  /** Integer in events, while the send call answers `session` as a string. */
  sessionId: number;
  /** Epoch milliseconds; sometimes omitted on `message.added`, as in the seed's samples. */
  createdAt?: number;
  data: Record<string, unknown>;
}

/** One HTTP attempt to deliver one webhook. */
export interface DeliveryRecord {
  eventId: string;
  kind: EventKind;
  conversationId: number;
  /** 1 for the first try of this copy; retries count up. */
  attempt: number;
  /** True for the deliberate second copy of an event (same eventId). */
  duplicate: boolean;
  /** HTTP status, or `'error'` for a network failure or timeout. */
  status: number | 'error';
  error?: string;
  durationMs: number;
  /** Epoch milliseconds when the attempt started. */
  at: number;
  /** True when this was the last attempt and it still failed. */
  gaveUp?: boolean;
}

/** Operator-console view of a conversation. */
export interface ConversationSummary {
  id: number;
  state: ConversationState;
  profileName?: string;
  /** The signed-in user's id, as the BFF verified it (user variable `verifiedUserId`). */
  verifiedUserId?: string;
  isTestChat: boolean;
  operatorEmail?: string;
  operatorName?: string;
  createdAt: number;
  updatedAt: number;
  unread: number;
  messageCount: number;
  lastMessage: { hbo: Hbo; preview: string; createdAt: number } | null;
  /** The visitor's language tag (user variable `locale`) and the page they chat on (`page` or `pageUrl`), when the BFF sent them. */
  locale?: string;
  page?: string;
}
