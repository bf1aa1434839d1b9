import type { Logger } from '../logger.js';
import { fetchWithRetry } from '../lib/http-retry.js';
import { signWebhook } from '../lib/webhook-verify.js';
import type { FeedbackPayload, FeedbackSink } from '../ports/feedback.js';
import type { Observer } from '../ports/observer.js';

export interface FeedbackWebhookOptions {
  url: string;
  secret: string;
  /** Requests in flight at once (FEEDBACK_CONCURRENCY). Default 8. */
  concurrency?: number;
  /** Deliveries that may wait for a free slot; past it a delivery is dropped. Default 10 × concurrency. */
  queueSize?: number;
  /** Attempts in all, the first included. Default 5. */
  attempts?: number;
  /** First backoff step in ms, doubled each retry, with full jitter. Default 500. */
  baseDelayMs?: number;
  /** Per-attempt timeout in ms. Default 5000 (the service's own webhooks get 5 s too). */
  timeoutMs?: number;
  logger?: Logger;
  observer?: Observer;
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * POSTs each vote (and CSAT rating) to the operator's endpoint, signed like the service's webhooks:
 * `x-parley-signature` = hex HMAC-SHA256 of `{x-parley-timestamp}.{body}`. Runs in the background:
 * a slow or failing endpoint never delays or fails the vote. At most `concurrency` requests are in
 * flight and `queueSize` wait; past that a delivery is dropped with a log line and a metric, so an
 * endpoint that never answers cannot pile up sockets. Retries are `fetchWithRetry`'s (network
 * errors, 408, 429, 5xx); redirects are never followed: a 3xx is a failed delivery.
 */
export class FeedbackWebhook implements FeedbackSink {
  private readonly pending = new Set<Promise<void>>();
  private readonly waiting: Array<() => void> = [];
  private active = 0;
  private closed = false;

  constructor(private readonly o: FeedbackWebhookOptions) {}

  deliver(payload: object): void {
    const concurrency = this.o.concurrency ?? 8;
    if (this.closed || (this.active >= concurrency && this.waiting.length >= (this.o.queueSize ?? concurrency * 10))) {
      this.o.logger?.warn('feedback webhook dropped', { reason: this.closed ? 'shutting down' : 'queue full', queued: this.waiting.length });
      this.o.observer?.feedbackForward?.('dropped');
      return;
    }
    const delivery = this.slot(concurrency)
      .then(() => this.send(payload))
      .finally(() => {
        this.active--;
        this.waiting.shift()?.();
        this.pending.delete(delivery);
      });
    this.pending.add(delivery);
  }

  /** Drops what waits and lets deliveries in flight finish, at most `graceMs`. */
  async close(graceMs = 5_000): Promise<void> {
    this.closed = true;
    await Promise.race([Promise.allSettled([...this.pending]), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }

  /** Resolves once a request slot is this delivery's. */
  private slot(concurrency: number): Promise<void> {
    if (this.active < concurrency) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(() => (this.active++, resolve())));
  }

  private async send(payload: object): Promise<void> {
    const body = JSON.stringify(payload);
    // Seconds, like the service's own timestamps; all attempts of a delivery lie well inside a receiver's 5-minute window.
    const timestamp = String(Math.floor((this.o.now ?? Date.now)() / 1000));
    let outcome: string;
    try {
      const res = await fetchWithRetry(
        {
          target: 'feedback',
          operation: 'forward',
          url: this.o.url,
          idempotent: true, // the receiver deduplicates by the signed body, as we do the service's webhooks
          init: {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/json', 'x-parley-timestamp': timestamp, 'x-parley-signature': signWebhook(this.o.secret, timestamp, body) },
            body,
          },
        },
        { retries: (this.o.attempts ?? 5) - 1, timeoutMs: this.o.timeoutMs ?? 5_000, baseDelayMs: this.o.baseDelayMs ?? 500 },
        { fetch: this.o.fetch },
      );
      await res.body?.cancel().catch(() => {});
      if (res.ok) {
        this.o.observer?.feedbackForward?.('delivered');
        return;
      }
      outcome = `status ${res.status}`;
    } catch (err) {
      outcome = (err as { code?: string }).code ?? String(err);
    }
    this.o.observer?.feedbackForward?.('failed');
    this.o.logger?.warn('feedback webhook not delivered', { ...('messageId' in payload ? { messageId: payload.messageId } : {}), outcome });
  }
}
