/** One message of the upstream history, in the loose shape the service may send (normalised later). */
export type RawHistoryItem = Record<string, unknown>;

export interface SendInput {
  message: string;
  /** Omitted on the first message; the upstream then creates the session. */
  session?: string;
  profileName?: string;
  isTestChat?: boolean;
}

/** Values a user variable may take. */
export type VariableValue = string | number | boolean;

/**
 * The agent-messaging part of the service (area B) as the BFF uses it.
 * Adapters throw `UpstreamError` subclasses; they never leak upstream bodies.
 */
export interface AgentUpstream {
  /** Sends a user message with `webhookOnly: true`; resolves with the session id (string). */
  send(input: SendInput): Promise<{ session: string }>;
  /** One page of the session's history as returned upstream (any documented-or-not wrapper unwrapped). */
  listMessages(session: string, limit: number, offset: number): Promise<RawHistoryItem[]>;
  setUserVariables(session: string, variables: Record<string, VariableValue>): Promise<void>;
  escalate(session: string, operatorEmail: string): Promise<void>;
  archive(session: string): Promise<void>;
}
