import { describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { MemoryOnceStore } from '../adapters/memory-limits.js';
import { MemoryEventStore } from '../adapters/memory-store.js';
import { TokenService } from '../lib/tokens.js';
import type { Observer } from '../ports/observer.js';
import { streamDeps } from '../../../test/helpers/stream-deps.js';

describe('event stream and token expiry', () => {
  it('ends with an error event token_expired when the token expires, and cleans up', async () => {
    const config = loadConfig({ DEMO: 'true' });
    // Two-second tokens (the configuration's minimum is 30 s, the route does not care): expiry is in
    // whole seconds, so a one-second token made late in a second was already spent when the stream asked.
    const tokens = new TokenService({ secret: config.sessionJwtSecret, accessTtlSec: 2, refreshTtlSec: 60, onceStore: new MemoryOnceStore() });
    const store = new MemoryEventStore({ maxEvents: 10, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
    let open = 0;
    const observer: Observer = { streamOpened: () => open++, streamClosed: () => open-- };
    const deps = streamDeps(config, tokens, { store, observer });
    await store.append('9', { event: 'state', data: { state: 'active' } });
    const { token } = await tokens.issue('9', undefined);
    const started = Date.now();
    const res = await createApp(deps).request(`/api/events?token=${token}`);
    expect(res.status).toBe(200);
    expect(open).toBe(1);
    const text = await res.text(); // resolves only when the server ends the stream
    expect(Date.now() - started).toBeLessThan(3500);
    expect(text).toContain('id: 1\nevent: state\ndata: {"state":"active"}\n\n');
    expect(text.endsWith('id: 1\nevent: error\ndata: {"code":"token_expired","message":"Session token expired; refresh it and reconnect"}\n\n')).toBe(true);
    expect(open).toBe(0);
  });
});
