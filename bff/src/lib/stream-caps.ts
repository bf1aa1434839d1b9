import { AppError } from '../errors.js';

/**
 * Caps on open event streams in this process: per conversation, and per client address. The
 * widget holds one stream per browser (tabs share it), so a conversation rarely has more than a
 * few (two devices of a signed-in user, a reconnect overlapping its predecessor); the per-client
 * cap is generous because many visitors may share one NAT address.
 */
export class StreamCaps {
  private readonly conversations = new Map<string, number>();
  private readonly clients = new Map<string, number>();

  constructor(
    private readonly perConversation: number,
    private readonly perClient: number,
  ) {}

  /**
   * Counts one stream of `conversationId` from `client`, or throws `429 too_many_streams` and
   * counts nothing. The returned function gives the place back (call it once, when the stream ends).
   * A stream that `replaces` one open here (a ticket's reconnect, which closes its predecessor once
   * it opens) is counted whatever the caps: the count is back where it was when the old one ends.
   */
  take(conversationId: string, client: string, refused?: (reason: 'conversation' | 'client') => void, replaces = false): () => void {
    if (replaces) return this.count(conversationId, client);
    if ((this.conversations.get(conversationId) ?? 0) >= this.perConversation) {
      refused?.('conversation');
      throw new AppError('too_many_streams', `This conversation already has ${this.perConversation} open streams; close one first`);
    }
    if ((this.clients.get(client) ?? 0) >= this.perClient) {
      refused?.('client');
      throw new AppError('too_many_streams', 'Too many open streams from this address');
    }
    return this.count(conversationId, client);
  }

  private count(conversationId: string, client: string): () => void {
    add(this.conversations, conversationId, 1);
    add(this.clients, client, 1);
    let given = false;
    return () => {
      if (given) return;
      given = true;
      add(this.conversations, conversationId, -1);
      add(this.clients, client, -1);
    };
  }
}

function add(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
}
