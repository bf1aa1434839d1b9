import { createHash } from 'node:crypto';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import type { AppDeps, WidgetAsset } from '../context.js';
import { MemoryOnceStore, MemoryRateLimiter, MemoryStartRecords } from '../adapters/memory-limits.js';
import { MemoryEventStore } from '../adapters/memory-store.js';
import { silentLogger } from '../logger.js';
import { Heartbeat } from '../lib/sse.js';
import { TokenService } from '../lib/tokens.js';
import { versionedPath } from '../lib/widget-asset.js';
import { MemoryUserDirectory } from '../adapters/memory-users.js';
import { WebhookVerifier } from '../lib/webhook-verify.js';

function appWith(widget: WidgetAsset) {
  const config = loadConfig({ DEMO: 'true' });
  const deps: AppDeps = {
    config,
    store: new MemoryEventStore({ maxEvents: 10, maxAgeMs: 60_000, dedupTtlMs: 60_000 }),
    rateLimiter: new MemoryRateLimiter(),
    onceStore: new MemoryOnceStore(),
    starts: new MemoryStartRecords(),
    chat: {} as AppDeps['chat'], // public routes never reach the chat backend
    tokens: new TokenService({ secret: config.sessionJwtSecret, accessTtlSec: 900, refreshTtlSec: 3600, onceStore: new MemoryOnceStore() }),
    users: new MemoryUserDirectory(),
    verifier: new WebhookVerifier({ secrets: ['unused'] }),
    heartbeat: new Heartbeat(60_000),
    logger: silentLogger,
    widget,
  };
  return createApp(deps);
}

const german = new TextEncoder().encode(JSON.stringify({ open: 'Chat öffnen' }));
const css = new TextEncoder().encode(':host{all:initial}');
const chunk = (text: string) => ({ body: new TextEncoder().encode(text), gzip: gzipSync(text), brotli: brotliCompressSync(text) });
const chunks = new Map([
  ['parley-chat.Ab12-_x9.js', chunk('/*chat*/')],
  ['parley-parts.Cd34.js', chunk('/*parts*/')],
]);
const body = new TextEncoder().encode('/*widget*/');
const widget: WidgetAsset = { body, etag: '"abc"', versioned: versionedPath(body), integrity: 'sha384-x', locales: new Map([['de.json', german]]), css, chunks };

describe('GET /widget-{hash}.js', () => {
  it("serves widget.js under the name manifest.json gives (the SHA-256's first 8, base64url), cached for a year", async () => {
    const name = `/widget-${createHash('sha256').update(body).digest('base64url').slice(0, 8)}.js`;
    expect(widget.versioned).toBe(name);
    const res = await appWith(widget).request(name);
    expect([res.status, res.headers.get('cache-control'), await res.text()]).toEqual([200, 'public, max-age=31536000, immutable', '/*widget*/']);
    expect((await appWith(widget).request('/widget-AAAAAAAA.js')).status).toBe(404);
  });
});

describe('GET /parley-chat.{hash}.js and /parley-parts.{hash}.js', () => {
  it.each([...chunks.keys()])('serves %s compressed, cached for a year as immutable (its name changes with its bytes)', async (name) => {
    const res = await appWith(widget).request(`/${name}`, { headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(new Uint8Array(await res.arrayBuffer())).toString()).toBe(name.startsWith('parley-chat') ? '/*chat*/' : '/*parts*/');
  });

  it.each([
    ['br;q=0, gzip;q=0', null],
    ['br;q=0, gzip', 'gzip'],
    ['gzip, br', 'br'],
  ])('takes the q-values of Accept-Encoding %j: %s', async (accept, coding) => {
    const res = await appWith(widget).request('/parley-chat.Ab12-_x9.js', { headers: { 'accept-encoding': accept } });
    expect(res.headers.get('content-encoding')).toBe(coding);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get('content-length')).toBe(String(bytes.byteLength));
    if (coding === null) expect(new TextDecoder().decode(bytes)).toBe('/*chat*/');
  });

  it('answers 404 not_found for a chunk that this build does not have (an older hash)', async () => {
    const res = await appWith(widget).request('/parley-parts.Zz99.js');
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});

describe('GET /widget-locales/{lang}.json', () => {
  it('serves a built language to any site, cached for a day', async () => {
    const res = await appWith(widget).request('/widget-locales/de.json', { headers: { origin: 'https://any.example' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ open: 'Chat öffnen' });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toMatch(/max-age=86400/);
  });

  it.each(['xx.json', 'de.js', '..%2Fwidget.js', 'constructor.json'])('answers 404 not_found for %s', async (file) => {
    const res = await appWith(widget).request(`/widget-locales/${file}`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});

describe('GET /widget.css', () => {
  it('serves the CSS for browsers without constructable stylesheets', async () => {
    const res = await appWith(widget).request('/widget.css');
    expect([res.status, res.headers.get('content-type'), await res.text()]).toEqual([200, 'text/css; charset=utf-8', ':host{all:initial}']);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  });
});
