/** One message of a chat-completions request (the gateway keeps no history; the BFF resends it). */
export interface ChatTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  messages: ChatTurn[];
  /** Sent as `max_tokens`. */
  maxTokens?: number;
  /** Stops the call (and a running stream) early, e.g. at shutdown. */
  signal?: AbortSignal;
}

/**
 * The model gateway (area A) as model mode uses it. Adapters throw `UpstreamError`s:
 * `model_unavailable_in_region` (451, never retried elsewhere), `budget_exhausted`, `upstream_*`.
 */
export interface ModelGateway {
  readonly region: 'eu' | 'global';
  readonly model: string;
  /** Streams the reply as text deltas, in order; ends when the gateway says the reply is complete. */
  streamChatCompletion(request: CompletionRequest): AsyncIterable<string>;
}
