import type { Redis } from 'ioredis';

/** Where a channel's messages are published and what its subscribers must use. */
export interface ChannelRouting {
  /**
   * `classic`: SUBSCRIBE/`message` on one Redis. `sharded`: SSUBSCRIBE/`smessage`, for a Redis
   * Cluster, where a shard channel lives on the master of its slot (no broadcast to every node).
   */
  mode: 'classic' | 'sharded';
  /** The node that serves `channel` now (one name for a single Redis). */
  nodeOf(channel: string): string;
  /** A new connection in subscriber mode to `node`, connecting (ioredis reconnects it by itself). */
  connect(node: string): Redis;
}

const FIRST_CONNECT_WAIT_MS = 2000;

interface Node {
  connection: Redis;
  channels: Set<string>;
  /** Settles once the connection was ready the first time. */
  ready: Promise<void>;
}

/**
 * Pub/sub channels on one subscriber connection per node. ioredis subscribes a connection's
 * channels again after a reconnect, but what was published meanwhile is gone: `onGap` names the
 * channels that may have missed messages, so their listeners read them from the log.
 */
export class ChannelSubscriber {
  private readonly nodes = new Map<string, Node>();
  private messageHandler: (channel: string, raw: string) => void = () => {};
  private gapHandler: (channels: string[]) => void = () => {};

  constructor(private readonly routing: ChannelRouting) {}

  onMessage(handler: (channel: string, raw: string) => void): void {
    this.messageHandler = handler;
  }

  onGap(handler: (channels: string[]) => void): void {
    this.gapHandler = handler;
  }

  /** Subscribes each channel on the node that serves it; resolves once every node confirmed. */
  async subscribe(channels: string[]): Promise<void> {
    await Promise.all(
      channels.map(async (channel) => {
        const node = this.node(this.routing.nodeOf(channel));
        node.channels.add(channel);
        // A node that is down fails the subscription (and the stream asking for it) after a while.
        await Promise.race([node.ready, new Promise((resolve) => setTimeout(resolve, FIRST_CONNECT_WAIT_MS).unref())]);
        // One channel per command: a cluster refuses SSUBSCRIBE of channels in different slots.
        await (this.routing.mode === 'sharded' ? node.connection.ssubscribe(channel) : node.connection.subscribe(channel));
      }),
    );
  }

  async unsubscribe(channel: string): Promise<void> {
    for (const node of this.nodes.values()) {
      if (!node.channels.delete(channel)) continue;
      await (this.routing.mode === 'sharded' ? node.connection.sunsubscribe(channel) : node.connection.unsubscribe(channel));
    }
  }

  /**
   * After the cluster's slot map changed (failover, resharding): channels whose slot moved are
   * subscribed on their new node and reported as a gap. Returns how many moved.
   */
  reroute(): number {
    const moved: string[] = [];
    for (const [name, node] of this.nodes) {
      for (const channel of node.channels) {
        if (this.routing.nodeOf(channel) === name) continue;
        node.channels.delete(channel);
        moved.push(channel);
        node.connection.sunsubscribe(channel).catch(() => {});
      }
    }
    if (moved.length > 0) this.gapHandler(moved);
    return moved.length;
  }

  async close(): Promise<void> {
    const nodes = [...this.nodes.values()];
    this.nodes.clear();
    await Promise.all(nodes.map((node) => quit(node.connection)));
  }

  private node(name: string): Node {
    const existing = this.nodes.get(name);
    if (existing) return existing;
    const connection = this.routing.connect(name);
    const channels = new Set<string>();
    const event = this.routing.mode === 'sharded' ? 'smessage' : 'message';
    connection.on(event, (channel: string, raw: string) => this.messageHandler(channel, raw));
    // A connection handed over already connected (the single Redis' subscriber) is started.
    let connected = connection.status === 'ready';
    let started: () => void = () => {};
    const ready = connected ? Promise.resolve() : new Promise<void>((resolve) => (started = resolve));
    connection.on('ready', () => {
      // The first 'ready' is the start, every later one a reconnect that may have lost messages.
      if (connected && channels.size > 0) this.gapHandler([...channels]);
      connected = true;
      started();
    });
    const node: Node = { connection, channels, ready };
    this.nodes.set(name, node);
    return node;
  }
}

/** Quits a connection, or drops it when it cannot be reached (the offline queue is off). */
export async function quit(connection: { status: string; quit(): Promise<unknown>; disconnect(): void }): Promise<void> {
  if (connection.status === 'end') return;
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
