import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics.js';

describe('Metrics', () => {
  it('counts webhooks by outcome, open streams, and renders cumulative histograms', () => {
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
    const text = m.render();
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
});
