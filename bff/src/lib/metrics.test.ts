import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics.js';

describe('Metrics', () => {
  it('counts webhooks by outcome, open streams, and renders cumulative histograms', async () => {
    const m = new Metrics();
    m.webhook({ outcome: 'stored', durationMs: 0.3 });
    m.webhook({ outcome: 'stored', durationMs: 3 });
    m.webhook({ outcome: 'duplicate', durationMs: 0.2 });
    m.streamOpened();
    m.streamOpened();
    m.streamClosed();
    m.delivered(0.7);
    m.delivered(30);
    m.upstreamCall({ target: 'agent', operation: 'send', status: 200, durationMs: 12 });
    m.upstreamCall({ target: 'agent', operation: 'send', status: 503, durationMs: 4 });
    const text = await m.render();
    expect(text).toContain('parley_webhooks_total{outcome="stored"} 2');
    expect(text).toContain('parley_webhooks_total{outcome="duplicate"} 1');
    expect(text).toContain('parley_streams_open 1');
    expect(text).toContain('parley_streams_total 2');
    expect(text).toContain('parley_delivery_latency_seconds_bucket{le="0.001"} 1');
    expect(text).toContain('parley_delivery_latency_seconds_bucket{le="0.05"} 2');
    expect(text).toContain('parley_delivery_latency_seconds_count 2');
    expect(text).toContain('parley_upstream_requests_total{target="agent",operation="send",status="503"} 1');
    expect(text).toContain('parley_upstream_duration_seconds_bucket{target="agent",operation="send",le="+Inf"} 2');
    expect(text.endsWith('\n')).toBe(true);
  });

  it("adds Node's process metrics (prom-client defaults) and keeps the two names /metrics had before", async () => {
    const text = await new Metrics().render();
    for (const name of ['process_cpu_user_seconds_total', 'nodejs_eventloop_lag_seconds', 'nodejs_gc_duration_seconds', 'nodejs_active_handles_total', 'nodejs_heap_size_total_bytes']) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
    expect(text).toMatch(/^nodejs_heap_used_bytes \d+$/m);
    // Each name once: a second app in the process (tests, the demo) registers no second copy.
    expect(text.match(/^# TYPE process_resident_memory_bytes /gm)).toHaveLength(1);
    const a = new Metrics();
    a.webhook({ outcome: 'stored', durationMs: 1 });
    expect(await new Metrics().render()).not.toContain('parley_webhooks_total{outcome="stored"}');
  });
});
