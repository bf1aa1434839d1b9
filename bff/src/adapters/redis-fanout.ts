import type { StoredEvent } from '../../../shared/types.js';
import type { EventListener } from '../ports/event-store.js';
import type { ChannelSubscriber } from './redis-channels.js';

/** Where a conversation's log stands: its data's epoch and its id counter. */
export interface LogPosition {
  /** Names the conversation's data in Redis; a new value means it was lost and ids started over. */
  epoch: string;
  counter: number;
}

interface Channel {
  listeners: Set<EventListener>;
  /** Settles once SUBSCRIBE is confirmed (rejects if it failed). */
  ready: Promise<void>;
  /** SUBSCRIBE confirmed and `lastId` known: only such channels take part in a gap fill. */
  live: boolean;
  /** Highest id handed to listeners: where a gap fill after a reconnect starts. */
  lastId: number;
  /** The epoch `lastId` belongs to, read with it; a gap fill that finds another one starts over. */
  epoch?: string;
  /** Live events held while a gap fill reads the log, so nothing is delivered out of order or twice. */
  held?: StoredEvent[];
  /** Listeners to tell, with their next event, that ids started over (they would drop a known id). */
  restarted?: Set<EventListener>;
}

/** What the fan-out needs from the store, and its channels. */
export interface RedisFanoutOptions {
  /** Subscriber connections (one per cluster node). */
  channels: ChannelSubscriber;
  /** Names a conversation's channel (in the conversation's hash slot). */
  channel(conversationId: string): string;
  /** Retained events after `afterId` (at most `limit`, by default all), with the log's position. */
  catchUp(conversationId: string, afterId: number, limit?: number): Promise<LogPosition & { events: StoredEvent[] }>;
}

const CATCH_UP_ATTEMPTS = 5;
const CATCH_UP_RETRY_MS = 200;

/**
 * Pub/sub fan-out for `RedisEventStore`: one channel per conversation with local listeners,
 * subscribed on first listener and unsubscribed on last. Pub/sub forgets what it published while
 * a connection was down, so after every reconnect each channel reads what it missed from the log.
 * Errors are thrown raw; the store translates them.
 */
export class RedisFanout {
  private readonly channels = new Map<string, Channel>();
  /** Conversation by channel name, for incoming messages. */
  private readonly byChannel = new Map<string, string>();
  private refills: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(private readonly options: RedisFanoutOptions) {
    options.channels.onMessage((channel, raw) => this.onMessage(channel, raw));
    // ioredis re-subscribes by itself on reconnect; the gap it leaves is ours to fill. Hold live
    // events from this moment, before any reply of the new connection can be read.
    options.channels.onGap((names) => {
      const live: Array<[string, Channel]> = [];
      for (const name of names) {
        const conversationId = this.byChannel.get(name);
        const channel = conversationId === undefined ? undefined : this.channels.get(conversationId);
        if (channel?.live) live.push([conversationId!, channel]);
      }
      for (const [, channel] of live) channel.held ??= [];
      // refill() handles its own failures; the catch only keeps the chain alive for the next one.
      this.refills = this.refills.then(() => this.refill(live)).catch(() => {});
    });
  }

  /** The pub/sub channel of a conversation. */
  channel(conversationId: string): string {
    return this.options.channel(conversationId);
  }

  /** Adds a listener; resolves once the conversation's SUBSCRIBE is confirmed by Redis. */
  async subscribe(conversationId: string, listener: EventListener): Promise<() => void> {
    let entry = this.channels.get(conversationId);
    if (!entry) {
      const created: Channel = { listeners: new Set(), ready: Promise.resolve(), live: false, lastId: 0 };
      created.ready = this.open(conversationId, created);
      this.channels.set(conversationId, created);
      this.byChannel.set(this.channel(conversationId), conversationId);
      entry = created;
    }
    const channel = entry;
    channel.listeners.add(listener);
    try {
      await channel.ready;
    } catch (err) {
      channel.listeners.delete(listener);
      if (this.channels.get(conversationId) === channel) this.forget(conversationId);
      throw err;
    }
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      this.remove(conversationId, channel, listener);
    };
  }

  /** Forgets every listener (on close). */
  clear(): void {
    this.closed = true;
    this.channels.clear();
    this.byChannel.clear();
  }

  private async open(conversationId: string, channel: Channel): Promise<void> {
    // Id and epoch are read together, before SUBSCRIBE: a later gap fill then never reaches back
    // past the subscription, and tells a lost data set by this conversation's own epoch (a
    // cached one would be stale after Redis came back empty while no stream was open).
    const position = await this.options.catchUp(conversationId, 0, 0);
    channel.lastId = position.counter;
    channel.epoch = position.epoch;
    await this.options.channels.subscribe([this.channel(conversationId)]);
    channel.live = true;
  }

  private remove(conversationId: string, channel: Channel, listener: EventListener): void {
    channel.listeners.delete(listener);
    if (channel.listeners.size > 0 || this.channels.get(conversationId) !== channel) return;
    this.forget(conversationId);
    // If this fails (connection down), onMessage drops the channel the next time it hears from it.
    this.options.channels.unsubscribe(this.channel(conversationId)).catch(() => {});
  }

  private forget(conversationId: string): void {
    this.channels.delete(conversationId);
    this.byChannel.delete(this.channel(conversationId));
  }

  private onMessage(name: string, raw: string): void {
    const conversationId = this.byChannel.get(name);
    const channel = conversationId === undefined ? undefined : this.channels.get(conversationId);
    if (!channel) {
      // Not ours (another adapter's channel on a shared connection) or no longer listened to.
      return;
    }
    let event: StoredEvent;
    try {
      event = JSON.parse(raw) as StoredEvent;
    } catch {
      return; // not written by our append script
    }
    if (channel.held) channel.held.push(event);
    // A gap fill may have read it from the log before its message arrived (two connections, no common order).
    else if (event.id > channel.lastId) deliver(channel, event);
  }

  private async refill(live: Array<[string, Channel]>): Promise<void> {
    if (live.length === 0 || this.closed) return;
    try {
      // Queued behind ioredis' own re-SUBSCRIBE on the same connection (or on the channel's new
      // node): once this is confirmed, every channel is live again and a read of the log cannot miss anything.
      await this.options.channels.subscribe(live.map(([id]) => this.channel(id)));
    } catch {
      // The connection dropped again; the next 'ready' starts another refill.
      for (const [, channel] of live) release(channel);
      return;
    }
    await Promise.all(live.map(([id, channel]) => this.catchUp(id, channel)));
  }

  private async catchUp(conversationId: string, channel: Channel): Promise<void> {
    const found = await this.retry(() => this.options.catchUp(conversationId, channel.lastId));
    if (found) {
      if (found.epoch !== channel.epoch) {
        // The conversation's Redis node came back empty (no persistence): every id in it is new to us.
        channel.epoch = found.epoch;
        restart(channel, 0);
        const fresh = await this.retry(() => this.options.catchUp(conversationId, 0));
        if (fresh) found.events = fresh.events;
      }
      // A counter below what was delivered: Redis lost its latest writes (e.g. failover to a lagging replica).
      else if (found.counter < channel.lastId) restart(channel, found.counter);
      for (const event of found.events) if (event.id > channel.lastId) deliver(channel, event);
    }
    release(channel);
  }

  /** The command connection may come back a little after the subscriber: retry briefly. */
  private async retry<T>(work: () => Promise<T>): Promise<T | undefined> {
    for (let attempt = 1; attempt <= CATCH_UP_ATTEMPTS && !this.closed; attempt++) {
      try {
        return await work();
      } catch {
        if (attempt < CATCH_UP_ATTEMPTS) await new Promise((resolve) => setTimeout(resolve, CATCH_UP_RETRY_MS * attempt));
      }
    }
    return undefined;
  }
}

/** Ends a gap fill: delivers the live events held meanwhile that the fill did not already deliver. */
function release(channel: Channel): void {
  const held = channel.held ?? [];
  channel.held = undefined;
  for (const event of held) if (event.id > channel.lastId) deliver(channel, event);
}

/** Ids start over after `lastId`: the listeners present now are told so with their next event. */
function restart(channel: Channel, lastId: number): void {
  channel.lastId = lastId;
  channel.restarted = new Set(channel.listeners);
}

function deliver(channel: Channel, event: StoredEvent): void {
  channel.lastId = event.id;
  const restarted = channel.restarted;
  channel.restarted = undefined;
  for (const listener of [...channel.listeners]) {
    try {
      listener(event, restarted?.has(listener) ?? false);
    } catch {
      // A broken listener must not stop delivery to the others.
    }
  }
}
