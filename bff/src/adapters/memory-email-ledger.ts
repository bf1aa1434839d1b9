import type { EmailLedger, Presence, Recipient, SendClaim } from '../ports/email-ledger.js';

interface Entry {
  recipient: Recipient;
  expiresAt: number;
  streams: Map<string, number>;
  leftAt?: number;
  sentAt?: number;
}

/** The email ledger in process memory: one instance, lost on restart like the event store. */
export class MemoryEmailLedger implements EmailLedger {
  private readonly entries = new Map<string, Entry>();
  private readonly due = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async note(conversationId: string, patch: Recipient, ttlMs: number): Promise<void> {
    const entry = this.entry(conversationId);
    for (const [key, value] of Object.entries(patch)) if (value !== undefined) (entry.recipient as Record<string, unknown>)[key] = value;
    entry.expiresAt = this.now() + ttlMs;
  }

  async recipient(conversationId: string): Promise<Recipient | undefined> {
    const entry = this.live(conversationId);
    return entry && Object.keys(entry.recipient).length > 0 ? { ...entry.recipient } : undefined;
  }

  async streamOpened(conversationId: string, streamId: string, until: number): Promise<void> {
    this.entry(conversationId).streams.set(streamId, until);
  }

  async streamClosed(conversationId: string, streamId: string, at: number): Promise<void> {
    const entry = this.entry(conversationId);
    entry.streams.delete(streamId);
    entry.leftAt = Math.max(entry.leftAt ?? 0, at);
  }

  async presence(conversationId: string, now: number): Promise<Presence> {
    const entry = this.live(conversationId);
    if (!entry) return {};
    let openUntil: number | undefined;
    for (const [id, until] of entry.streams) {
      if (until <= now) entry.streams.delete(id);
      else openUntil = Math.max(openUntil ?? 0, until);
    }
    return { ...(openUntil !== undefined && { openUntil }), ...(entry.leftAt !== undefined && { leftAt: entry.leftAt }) };
  }

  async schedule(conversationId: string, at: number): Promise<void> {
    const before = this.due.get(conversationId);
    if (before === undefined || at < before) this.due.set(conversationId, at);
  }

  async takeDue(now: number, limit: number): Promise<string[]> {
    const taken = [...this.due].filter(([, at]) => at <= now).sort((a, b) => a[1] - b[1]).slice(0, limit).map(([id]) => id);
    for (const id of taken) this.due.delete(id);
    return taken;
  }

  async claimSend(conversationId: string, now: number, intervalMs: number): Promise<SendClaim> {
    const entry = this.entry(conversationId);
    if (entry.sentAt !== undefined && now < entry.sentAt + intervalMs) return { granted: false, retryAt: entry.sentAt + intervalMs };
    entry.sentAt = now;
    return { granted: true };
  }

  private live(conversationId: string): Entry | undefined {
    const entry = this.entries.get(conversationId);
    if (entry && entry.expiresAt <= this.now()) {
      this.entries.delete(conversationId);
      return undefined;
    }
    return entry;
  }

  private entry(conversationId: string): Entry {
    let entry = this.live(conversationId);
    if (!entry) {
      // Presence and sends come before any note for some conversations: a day, until a note sets the TTL.
      entry = { recipient: {}, expiresAt: this.now() + 86_400_000, streams: new Map() };
      this.entries.set(conversationId, entry);
    }
    return entry;
  }
}
