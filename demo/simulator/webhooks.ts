import { createHmac } from 'node:crypto';
import type { DeliveryRecord, WebhookEnvelope } from './types.js';

/** Lowercase hex HMAC-SHA256 of `${timestamp}.${rawBody}`: the service's webhook signature. */
export function signWebhook(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

export interface DispatcherOptions {
  secret: string;
  fetch: typeof fetch;
  random: () => number;
  duplicateRate: number;
  timestampUnit: 's' | 'ms';
  /** First retry delay; each later one doubles. */
  retryBaseMs: number;
  maxAttempts: number;
  /** The service expects a 200 within 5 s; slower answers count as failures. */
  timeoutMs: number;
}

interface Job {
  envelope: WebhookEnvelope;
  /** Serialised once, so every retry and duplicate signs the very same bytes. */
  body: string;
  url: string;
  duplicate: boolean;
  attempt: number;
}

const LOG_SIZE = 500;
const REPLAYABLE = 200;

/**
 * Pushes signed webhooks like the service does: one queue per conversation (order kept),
 * retries with doubling backoff and a fresh signature, and now and then a second copy.
 */
export class WebhookDispatcher {
  private readonly queues = new Map<number, Job[]>();
  private readonly busy = new Set<number>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly inFlight = new Set<AbortController>();
  private readonly log: DeliveryRecord[] = [];
  private readonly sent = new Map<string, Job>();
  private closed = false;

  constructor(private readonly o: DispatcherOptions) {}

  /** Queues an event behind the earlier events of the same conversation. */
  enqueue(envelope: WebhookEnvelope, url: string): void {
    if (this.closed) return;
    const job: Job = { envelope, body: JSON.stringify(envelope), url, duplicate: false, attempt: 0 };
    const queue = this.queues.get(envelope.sessionId) ?? [];
    queue.push(job);
    this.queues.set(envelope.sessionId, queue);
    this.pump(envelope.sessionId);
  }

  /** Recent attempts, newest first, optionally of one conversation. */
  deliveries(filter: { conversationId?: number; limit?: number } = {}): DeliveryRecord[] {
    const rows = filter.conversationId === undefined ? this.log : this.log.filter((r) => r.conversationId === filter.conversationId);
    return rows.slice(-(filter.limit ?? 100)).reverse();
  }

  /** True when nothing is queued, waiting for a retry, or on the wire. */
  isIdle(): boolean {
    return this.queues.size === 0 && this.busy.size === 0 && this.inFlight.size === 0;
  }

  /**
   * Sends an already delivered event once more, outside the queues (the demo's "replay"):
   * same body and eventId, fresh signature. Without an id, the most recent event is used.
   */
  async redeliver(eventId?: string): Promise<DeliveryRecord | undefined> {
    const id = eventId ?? [...this.sent.keys()].pop();
    const job = id === undefined ? undefined : this.sent.get(id);
    if (!job || this.closed) return undefined;
    const copy: Job = { ...job, duplicate: true, attempt: 0 };
    await this.attempt(copy);
    return this.log[this.log.length - 1];
  }

  /** Stops timers and aborts requests on the wire; queued events are dropped. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const controller of this.inFlight) controller.abort();
    this.queues.clear();
    this.busy.clear();
  }

  private pump(conversationId: number): void {
    if (this.closed || this.busy.has(conversationId)) return;
    const queue = this.queues.get(conversationId);
    const job = queue?.[0];
    if (!queue || !job) {
      this.queues.delete(conversationId);
      return;
    }
    this.busy.add(conversationId);
    void this.attempt(job).then((ok) => {
      if (this.closed) return;
      if (ok || job.attempt >= this.o.maxAttempts) {
        queue.shift();
        if (ok && !job.duplicate) this.remember(job);
        // The copy goes to the back of the queue, so it may arrive after later events, like a late retry.
        if (ok && !job.duplicate && this.o.random() < this.o.duplicateRate) {
          queue.push({ ...job, duplicate: true, attempt: 0 });
        }
        this.busy.delete(conversationId);
        this.pump(conversationId);
        return;
      }
      // The conversation stays "busy" while waiting, so later events cannot overtake this one.
      const delay = this.o.retryBaseMs * 2 ** (job.attempt - 1);
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.busy.delete(conversationId);
        this.pump(conversationId);
      }, delay);
      this.timers.add(timer);
    });
  }

  /** One signed POST; resolves true only on HTTP 200, as the seed's delivery rules ask. */
  private async attempt(job: Job): Promise<boolean> {
    job.attempt++;
    const started = Date.now();
    // A fresh timestamp each try: a receiver with a 5-minute window must accept late retries.
    const timestamp = String(this.o.timestampUnit === 'ms' ? started : Math.floor(started / 1000));
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.o.timeoutMs);
    this.inFlight.add(controller);
    const record: DeliveryRecord = {
      eventId: job.envelope.eventId,
      kind: job.envelope.event,
      conversationId: job.envelope.sessionId,
      attempt: job.attempt,
      duplicate: job.duplicate,
      status: 'error',
      durationMs: 0,
      at: started,
    };
    try {
      const res = await this.o.fetch(job.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'parley-upstream-simulator',
          'x-service-event-id': job.envelope.eventId,
          'x-service-timestamp': timestamp,
          'x-service-signature': signWebhook(this.o.secret, timestamp, job.body),
        },
        body: job.body,
        signal: controller.signal,
      });
      record.status = res.status;
      await res.body?.cancel().catch(() => {});
    } catch (err) {
      record.error = controller.signal.aborted ? 'timeout or closed' : err instanceof Error ? err.message : String(err);
    } finally {
      clearTimeout(timer);
      this.inFlight.delete(controller);
    }
    record.durationMs = Date.now() - started;
    const ok = record.status === 200;
    if (!ok && job.attempt >= this.o.maxAttempts) record.gaveUp = true;
    this.log.push(record);
    if (this.log.length > LOG_SIZE) this.log.splice(0, this.log.length - LOG_SIZE);
    return ok;
  }

  private remember(job: Job): void {
    this.sent.delete(job.envelope.eventId);
    this.sent.set(job.envelope.eventId, job);
    if (this.sent.size > REPLAYABLE) {
      const oldest = this.sent.keys().next().value;
      if (oldest !== undefined) this.sent.delete(oldest);
    }
  }
}
