import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { EmailOutcome, Observer } from '../ports/observer.js';

const LATENCY_BUCKETS_MS = [0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];

let processRegistry: Registry | undefined;

/**
 * prom-client's default metrics (CPU, memory, event-loop lag, GC, handles) describe the process,
 * not an app: one registry for all, so tests that build many apps add no observers each. They
 * cost nothing per request (read at scrape time; GC and lag by observers of their own).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
    // Kept under the name /metrics gave before prom-client (its own is nodejs_heap_size_used_bytes).
    new Gauge({
      name: 'nodejs_heap_used_bytes',
      help: 'V8 heap in use.',
      registers: [processRegistry],
      collect() {
        this.set(process.memoryUsage().heapUsed);
      },
    });
  }
  return processRegistry;
}

class Histogram {
  readonly counts = new Array<number>(LATENCY_BUCKETS_MS.length).fill(0);
  sum = 0;
  count = 0;

  observe(ms: number): void {
    this.sum += ms;
    this.count++;
    // A loop, not findIndex with a closure: this runs for every webhook.
    for (let i = 0; i < LATENCY_BUCKETS_MS.length; i++) {
      if (ms <= LATENCY_BUCKETS_MS[i]!) {
        this.counts[i]!++;
        return;
      }
    }
  }

  render(name: string, labels: string): string[] {
    const lines: string[] = [];
    let cumulative = 0;
    const sep = labels ? `${labels},` : '';
    LATENCY_BUCKETS_MS.forEach((b, i) => {
      cumulative += this.counts[i]!;
      lines.push(`${name}_bucket{${sep}le="${b / 1000}"} ${cumulative}`);
    });
    lines.push(`${name}_bucket{${sep}le="+Inf"} ${this.count}`);
    lines.push(`${name}_sum${labels ? `{${labels}}` : ''} ${this.sum / 1000}`);
    lines.push(`${name}_count${labels ? `{${labels}}` : ''} ${this.count}`);
    return lines;
  }
}

/**
 * Prometheus metrics fed through the `Observer` hooks; `render()` gives the text exposition
 * format. Parley's own counters stay plain numbers: prom-client's labelled `inc` and `observe`
 * measured ~5 µs per webhook against ~0.3 µs here, over the 3 % the webhook path allows
 * (docs/design-choices.md). The process's metrics come from prom-client.
 */
export class Metrics implements Observer {
  // Started with the first app, not the first scrape: GC and event-loop lag are observed from start.
  private readonly process = processMetrics();
  private readonly webhooks = new Map<string, number>();
  private readonly upstream = new Map<string, number>();
  private readonly upstreamLatency = new Map<string, Histogram>();
  private readonly delivery = new Histogram();
  private readonly webhookLatency = new Histogram();
  private readonly votes = new Map<string, number>();
  private readonly ratings = new Map<number, number>();
  private readonly forwards = new Map<string, number>();

  private readonly emails = new Map<string, number>();
  private readonly streamsRefused = new Map<string, number>();
  private streams = 0;
  private streamsTotal = 0;

  webhook(o: { outcome: string; durationMs: number }): void {
    this.webhooks.set(o.outcome, (this.webhooks.get(o.outcome) ?? 0) + 1);
    this.webhookLatency.observe(o.durationMs);
  }

  upstreamCall(call: { target: string; operation: string; status: number | 'error'; durationMs: number }): void {
    const key = `target="${call.target}",operation="${call.operation}",status="${call.status}"`;
    this.upstream.set(key, (this.upstream.get(key) ?? 0) + 1);
    const hkey = `target="${call.target}",operation="${call.operation}"`;
    let h = this.upstreamLatency.get(hkey);
    if (!h) this.upstreamLatency.set(hkey, (h = new Histogram()));
    h.observe(call.durationMs);
  }

  streamOpened(): void {
    this.streams++;
    this.streamsTotal++;
  }

  streamClosed(): void {
    this.streams--;
  }

  streamRefused(reason: 'conversation' | 'client'): void {
    this.streamsRefused.set(reason, (this.streamsRefused.get(reason) ?? 0) + 1);
  }

  delivered(latencyMs: number): void {
    this.delivery.observe(latencyMs);
  }

  feedback(value: 'up' | 'down'): void {
    this.votes.set(value, (this.votes.get(value) ?? 0) + 1);
  }

  csat(score: number): void {
    this.ratings.set(score, (this.ratings.get(score) ?? 0) + 1);
  }

  feedbackForward(outcome: 'delivered' | 'failed' | 'dropped'): void {
    this.forwards.set(outcome, (this.forwards.get(outcome) ?? 0) + 1);
  }

  email(outcome: EmailOutcome): void {
    this.emails.set(outcome, (this.emails.get(outcome) ?? 0) + 1);
  }

  /** The Prometheus text format (version 0.0.4): Parley's metrics, then the process's (prom-client). */
  async render(): Promise<string> {
    const out: string[] = [];
    out.push('# HELP parley_webhooks_total Incoming webhooks by outcome.', '# TYPE parley_webhooks_total counter');
    for (const [outcome, n] of this.webhooks) out.push(`parley_webhooks_total{outcome="${outcome}"} ${n}`);
    out.push('# HELP parley_webhook_duration_seconds Time to answer a webhook.', '# TYPE parley_webhook_duration_seconds histogram');
    out.push(...this.webhookLatency.render('parley_webhook_duration_seconds', ''));
    out.push('# HELP parley_streams_open Event streams open on this instance.', '# TYPE parley_streams_open gauge', `parley_streams_open ${this.streams}`);
    out.push('# HELP parley_streams_total Event streams opened since start.', '# TYPE parley_streams_total counter', `parley_streams_total ${this.streamsTotal}`);
    out.push('# HELP parley_streams_refused_total Streams refused (429 too_many_streams) by the cap that bit.', '# TYPE parley_streams_refused_total counter');
    for (const [reason, n] of this.streamsRefused) out.push(`parley_streams_refused_total{reason="${reason}"} ${n}`);
    out.push('# HELP parley_delivery_latency_seconds From an event being stored to it being written to a stream.', '# TYPE parley_delivery_latency_seconds histogram');
    out.push(...this.delivery.render('parley_delivery_latency_seconds', ''));
    out.push('# HELP parley_upstream_requests_total Upstream calls by target, operation and status.', '# TYPE parley_upstream_requests_total counter');
    for (const [labels, n] of this.upstream) out.push(`parley_upstream_requests_total{${labels}} ${n}`);
    out.push('# HELP parley_upstream_duration_seconds Upstream call latency.', '# TYPE parley_upstream_duration_seconds histogram');
    for (const [labels, h] of this.upstreamLatency) out.push(...h.render('parley_upstream_duration_seconds', labels));
    out.push('# HELP parley_feedback_total Votes on answers (a changed vote counts again, a repeated one not).', '# TYPE parley_feedback_total counter');
    for (const [value, n] of this.votes) out.push(`parley_feedback_total{value="${value}"} ${n}`);
    out.push('# HELP parley_csat_total CSAT ratings by score (1-5).', '# TYPE parley_csat_total counter');
    for (const [score, n] of this.ratings) out.push(`parley_csat_total{score="${score}"} ${n}`);
    out.push('# HELP parley_feedback_forwards_total Forwards to FEEDBACK_WEBHOOK_URL by outcome (dropped: the queue was full).', '# TYPE parley_feedback_forwards_total counter');
    for (const [outcome, n] of this.forwards) out.push(`parley_feedback_forwards_total{outcome="${outcome}"} ${n}`);
    out.push('# HELP parley_emails_total Emails to visitors by outcome (sent, failed after its retries, retried, seen: the visitor came back first, unsubscribed).', '# TYPE parley_emails_total counter');
    for (const [outcome, n] of this.emails) out.push(`parley_emails_total{outcome="${outcome}"} ${n}`);
    return out.join('\n') + '\n\n' + (await this.process.metrics());
  }
}
