import type { RedisClient } from './redis-connection.js';
import { StoreUnavailableError } from '../errors.js';
import type { SignalBus, SignalListener, SignalName } from '../ports/signals.js';

/**
 * Signals over Redis pub/sub: one channel per signal name (`<prefix>signal:stop`), carrying the
 * conversation id. Signals are rare, so every instance hears every one and keeps those it can
 * act on; plain PUBLISH reaches every node's subscribers on Redis Cluster too.
 */
export class RedisSignalBus implements SignalBus {
  private readonly listeners = new Map<string, Set<SignalListener>>();

  constructor(
    private readonly client: RedisClient,
    private readonly subscriber: RedisClient,
    private readonly prefix: string,
  ) {
    subscriber.on('message', (channel: string, conversationId: string) => {
      for (const listener of [...(this.listeners.get(channel) ?? [])]) listener(conversationId);
    });
  }

  async publish(name: SignalName, conversationId: string): Promise<void> {
    try {
      await this.client.publish(this.channel(name), conversationId);
    } catch (err) {
      throw new StoreUnavailableError(undefined, { cause: err });
    }
  }

  async subscribe(name: SignalName, listener: SignalListener): Promise<() => void> {
    const channel = this.channel(name);
    let set = this.listeners.get(channel);
    if (!set) {
      this.listeners.set(channel, (set = new Set()));
      try {
        // ioredis subscribes again by itself after a reconnect.
        await this.subscriber.subscribe(channel);
      } catch (err) {
        this.listeners.delete(channel);
        throw new StoreUnavailableError(undefined, { cause: err });
      }
    }
    set.add(listener);
    return () => set.delete(listener);
  }

  private channel(name: SignalName): string {
    return `${this.prefix}signal:${name}`;
  }
}
