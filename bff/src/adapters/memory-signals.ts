import type { SignalBus, SignalListener, SignalName } from '../ports/signals.js';

/** The signal bus of a single instance (no Redis): every notice stays in this process. */
export class MemorySignalBus implements SignalBus {
  private readonly listeners = new Map<SignalName, Set<SignalListener>>();

  async publish(name: SignalName, conversationId: string): Promise<void> {
    for (const listener of [...(this.listeners.get(name) ?? [])]) listener(conversationId);
  }

  async subscribe(name: SignalName, listener: SignalListener): Promise<() => void> {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }
}
