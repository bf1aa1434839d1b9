import { describe, expect, it } from 'vitest';
import type { WebhookObservation } from '../bff/src/ports/observer.js';
import { createInspector } from './inspector.js';

const obs = (eventId: string, outcome: WebhookObservation['outcome'] = 'stored'): WebhookObservation => ({
  outcome,
  eventId,
  kind: 'message.added',
  conversationId: '1001',
  durationMs: 1.234,
});

/** Reads from an SSE body until `until` matches the accumulated text. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, until: (text: string) => boolean, seen = { text: '' }): Promise<string> {
  const decoder = new TextDecoder();
  while (!until(seen.text)) {
    const { value, done } = await reader.read();
    if (done) break;
    seen.text += decoder.decode(value, { stream: true });
  }
  return seen.text;
}

describe('inspector', () => {
  it('keeps the last N observations, numbered, and serves them as JSON', async () => {
    const inspector = createInspector({ size: 3 });
    for (const id of ['a', 'b', 'c', 'd']) inspector.observer.webhook?.(obs(id));
    const res = await inspector.app.request('/demo/inspector/recent');
    const body = (await res.json()) as { observations: { eventId: string; seq: number; at: number }[] };
    expect(body.observations.map((o) => [o.eventId, o.seq])).toEqual([
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ]);
    expect(body.observations[0]?.at).toBeGreaterThan(0);
  });

  it('replays the ring on connect, then streams live observations, and unsubscribes on abort', async () => {
    const inspector = createInspector({ heartbeatMs: 20 });
    inspector.observer.webhook?.(obs('old', 'invalid_signature'));
    const res = await inspector.app.request('/demo/inspector/events');
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = res.body!.getReader();
    const seen = { text: '' };
    await readUntil(reader, (t) => t.includes('"old"'), seen);
    expect(seen.text).toMatch(/^data: \{"outcome":"invalid_signature","eventId":"old",[^\n]*"seq":1,"at":\d+\}\nid: 1\n\n/);
    expect(inspector.viewers()).toBe(1);

    inspector.observer.webhook?.(obs('new', 'duplicate'));
    await readUntil(reader, (t) => t.includes('"new"'), seen);
    expect(seen.text).toMatch(/\ndata: \{"outcome":"duplicate","eventId":"new",[^\n]*"seq":2,"at":\d+\}\nid: 2\n\n/);
    // Heartbeat comment after a quiet period.
    await readUntil(reader, (t) => t.includes(': heartbeat'), seen);
    expect(seen.text.match(/"eventId":"old"/g)).toHaveLength(1);

    await reader.cancel();
    await new Promise((r) => setTimeout(r, 30));
    expect(inspector.viewers()).toBe(0);
  });

  it('resumes after Last-Event-ID without repeating', async () => {
    const inspector = createInspector();
    for (const id of ['a', 'b', 'c']) inspector.observer.webhook?.(obs(id));
    const res = await inspector.app.request('/demo/inspector/events', { headers: { 'last-event-id': '2' } });
    const reader = res.body!.getReader();
    const text = await readUntil(reader, (t) => t.includes('"c"'));
    expect(text).not.toContain('"a"');
    expect(text).not.toContain('"b"');
    await reader.cancel();
  });

  it('never throws into the caller', () => {
    const inspector = createInspector();
    expect(() => inspector.observer.webhook?.(null as unknown as WebhookObservation)).not.toThrow();
  });
});
