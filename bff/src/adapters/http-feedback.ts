import type { Logger } from '../logger.js';
import { signWebhook } from '../lib/webhook-verify.js';
import type { FeedbackPayload, FeedbackSink } from '../ports/feedback.js';

export interface FeedbackWebhookOptions {
  url: string;
  secret: string;
  /** Attempts in all, the first included. Default 5. */
  attempts?: number;
  /** First backoff step in ms, doubled each retry, with full jitter. Default 500. */
  baseDelayMs?: number;
  /** Per-attempt timeout in ms. Default 5000 (the service's own webhooks get 5 s too). */
  timeoutMs?: number;
  logger?: Logger;
  fetch?: typeof fetch;
  now?: () => number;
}

/**
 * POSTs each vote to the operator's endpoint, signed like the service's webhooks:
 * `x-parley-signature` = hex HMAC-SHA256 of `{x-parley-timestamp}.{body}`. Runs in the
 * background: a slow or failing endpoint never delays or fails the vote. Network errors, 408,
 * 429 and 5xx are retried with bounded exponential backoff; other answers end the delivery.
 */
export class FeedbackWebhook implements FeedbackSink {
  private readonly pending = new Set<Promise<void>>();
  private readonly closing = new AbortController();

  constructor(private readonly o: FeedbackWebhookOptions) {}

  deliver(payload: FeedbackPayload): void {
    const delivery = this.send(payload).finally(() => this.pending.delete(delivery));
    this.pending.add(delivery);
  }

  /** Lets deliveries in flight finish their current attempt (no more retries), at most `graceMs`. */
  async close(graceMs = 5_000): Promise<void> {
    this.closing.abort();
    await Promise.race([Promise.allSettled([...this.pending]), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
  }

  private async send(payload: FeedbackPayload): Promise<void> {
    const attempts = this.o.attempts ?? 5;
    const body = JSON.stringify(payload);
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(body);
      if (outcome === 'delivered') return;
      if (outcome === 'refused' || attempt >= attempts || this.closing.signal.aborted) {
        this.o.logger?.warn('feedback webhook not delivered', { messageId: payload.messageId, attempts: attempt, outcome });
        return;
      }
      const step = (this.o.baseDelayMs ?? 500) * 2 ** (attempt - 1);
      await new Promise((resolve) => setTimeout(resolve, Math.round(Math.random() * step)));
    }
  }

  private async attempt(body: string): Promise<'delivered' | 'retry' | 'refused'> {
    // Seconds, like the service's own timestamps; signed afresh each attempt so a retry is never stale.
    const timestamp = String(Math.floor((this.o.now ?? Date.now)() / 1000));
    try {
      const res = await (this.o.fetch ?? fetch)(this.o.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-parley-timestamp': timestamp, 'x-parley-signature': signWebhook(this.o.secret, timestamp, body) },
        body,
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 5_000),
      });
      await res.body?.cancel().catch(() => {});
      if (res.ok) return 'delivered';
      return res.status >= 500 || res.status === 408 || res.status === 429 ? 'retry' : 'refused';
    } catch {
      return 'retry';
    }
  }
}
