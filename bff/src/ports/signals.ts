/** Notices sent to every instance of a deployment and kept nowhere. */
export type SignalName = 'stop';

export type SignalListener = (conversationId: string) => void;

/**
 * Tells every instance (this one included) something about a conversation, e.g. "stop the
 * reply you are writing": the request may land on another instance than the work. A notice sent
 * while an instance is cut off from the bus is lost to it, so use it only where that is harmless.
 */
export interface SignalBus {
  publish(name: SignalName, conversationId: string): Promise<void>;
  /** Resolves once the listener is live. Returns the unsubscribe. */
  subscribe(name: SignalName, listener: SignalListener): Promise<() => void>;
}
