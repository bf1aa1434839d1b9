import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInspector } from './inspector.js';
import { createDemoRoutes } from './routes.js';
import { createSimulator, type Simulator } from './simulator/index.js';
import { findSiteDir } from './static.js';

const SECRET = 'demo-secret';
let sim: Simulator;
let bff: { url: string; seen: { status: number; timestamp?: string }[]; close(): Promise<void> };

/** A stand-in for the BFF's /webhooks/agent: HMAC over "{ts}.{body}", 5-minute window. */
async function startFakeBff(): Promise<typeof bff> {
  const seen: { status: number; timestamp?: string }[] = [];
  const ids = new Set<string>();
  const app = new Hono();
  app.post('/webhooks/agent', async (c) => {
    const raw = await c.req.text();
    const ts = c.req.header('x-service-timestamp');
    const sig = c.req.header('x-service-signature') ?? '';
    const expected = ts ? createHmac('sha256', SECRET).update(`${ts}.${raw}`).digest('hex') : '';
    const valid = ts !== undefined && sig.length === expected.length && timingSafeEqual(Buffer.from(sig), Buffer.from(expected));
    const fresh = ts !== undefined && Math.abs(Date.now() / 1000 - Number(ts)) <= 300;
    const status = valid && fresh ? 200 : 401;
    seen.push({ status, timestamp: ts });
    if (status === 200) ids.add(String((JSON.parse(raw) as { eventId: string }).eventId));
    return c.text('', status);
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

function demo(): Hono {
  return createDemoRoutes({ inspector: createInspector(), simulator: sim, publicOrigin: bff.url, simulatorBase: '/sim' });
}

beforeEach(async () => {
  bff = await startFakeBff();
  sim = createSimulator({ accessToken: 't', botKey: 'b', webhookSecret: SECRET, webhookUrl: `${bff.url}/webhooks/agent`, replyDelayMs: 0, duplicateRate: 0 });
});
afterEach(async () => {
  await sim.close();
  await bff.close();
});

const PAGES = ['/', '/console', '/inspector'];

describe('demo pages', () => {
  it('embeds the widget with exactly the integrator snippet, templated with the request origin', async () => {
    const res = await demo().request('http://shop.example:8080/');
    expect(res.status).toBe(200);
    const html = await res.text();
    // data-launcher="hours": the shop asks for the launcher to follow the support hours (CLOSED_LAUNCHER=hide).
    expect(html).toContain('<script src="/widget.js" data-bff="http://shop.example:8080" data-accent="#1f5f3f" data-title="Nimbus Outdoor" data-launcher="hours" async></script>');
    expect(html).not.toContain('{{');
  });

  it.each(PAGES)('%s has the strict CSP and no inline script, style attribute or handler', async (path) => {
    const res = await demo().request(`http://localhost${path}`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'; script-src 'self'; style-src 'self'");
    expect(csp).not.toContain('unsafe');
    const html = await res.text();
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toMatch(/\ssrc="/);
    expect(html).not.toMatch(/<script\b[^>]*>[^<\s]/);
    expect(html).not.toMatch(/\sstyle=|<style\b/i);
    expect(html).not.toMatch(/\son[a-z]+=/i);
  });

  it('serves every file the pages reference, with the right content type', async () => {
    const app = demo();
    const refs = new Set<string>();
    for (const path of PAGES) {
      const html = await (await app.request(`http://localhost${path}`)).text();
      for (const m of html.matchAll(/(?:src|href)="(\/demo\/[^"]+)"/g)) refs.add(m[1]!);
    }
    expect(refs.size).toBeGreaterThanOrEqual(10);
    for (const ref of refs) {
      const res = await app.request(`http://localhost${ref}`);
      expect(res.status, ref).toBe(200);
      const type = res.headers.get('content-type') ?? '';
      expect(type, ref).toMatch(ref.endsWith('.js') ? /^text\/javascript/ : ref.endsWith('.css') ? /^text\/css/ : /^image\/svg\+xml/);
    }
  });

  it('offers the badge and hand-off buttons only in agent mode', async () => {
    const agentPage = await (await demo().request('/')).text();
    expect(agentPage).toContain('<body data-chat-mode="agent">');
    const modelPage = await (await createDemoRoutes({ inspector: createInspector(), simulator: sim, chatMode: 'model' }).request('/')).text();
    expect(modelPage).toContain('<body data-chat-mode="model">');
    // Everything that asks for a badge or a person sits in the part model mode hides.
    const css = await (await demo().request('/demo/site/site.css')).text();
    expect(css).toContain("[data-chat-mode='model'] .agent-only, body:not([data-chat-mode='model']) .model-only { display: none; }");
    const hidden = /<section class="try agent-only"[\s\S]*?<\/section>/.exec(modelPage)?.[0] ?? '';
    for (const word of ['carousel', 'card', 'list', 'image', 'file', 'talk to a human']) expect(hidden).toContain(`>${word}<`);
  });

  it("serves marked's ESM build for the console's Markdown", async () => {
    const res = await demo().request('/demo/vendor/marked.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await res.text()).toMatch(/export\s*\{[^}]*\blexer\b/);
  });

  it('puts the simulator base into the console and inspector pages', async () => {
    expect(await (await demo().request('/console')).text()).toContain('data-sim-base="/sim"');
    expect(await (await demo().request('/inspector')).text()).toContain('data-sim-base="/sim"');
  });

  it('refuses paths that could leave the site folder', async () => {
    const app = demo();
    for (const path of ['/demo/site/..%2Froutes.ts', '/demo/site/static.ts', '/demo/assets/..%2F..%2Fpackage.json', '/demo/site/missing.js', '/demo/site/.hidden.js']) {
      expect((await app.request(path)).status, path).toBe(404);
    }
  });

  it('keeps browser scripts free of innerHTML and eval', () => {
    const dir = findSiteDir();
    for (const file of ['site.js', 'console.js', 'inspector.js', 'dom.js']) {
      const source = readFileSync(`${dir}/${file}`, 'utf8');
      expect(source, file).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|\beval\(|new Function/);
    }
  });

  it('finds demo/site from source and from the compiled dist/server/demo folder', () => {
    const site = fileURLToPath(new URL('./site', import.meta.url));
    expect(findSiteDir(fileURLToPath(new URL('.', import.meta.url)))).toBe(site.replace(/\/$/, ''));
    expect(findSiteDir(fileURLToPath(new URL('../dist/server/demo', import.meta.url)))).toBe(site.replace(/\/$/, ''));
  });
});

const JSON_TYPE = { 'content-type': 'application/json' };

describe('POST /demo/forge', () => {
  it.each([
    [{ origin: 'https://evil.example' }, 403, 'cross_site_refused'],
    [{ 'sec-fetch-site': 'cross-site' }, 403, 'cross_site_refused'],
    [{ 'content-type': 'text/plain' }, 415, 'unsupported_media_type'],
  ])('refuses a request a foreign page could send (%j): %i, and forges nothing', async (headers, status, code) => {
    const res = await demo().request('/demo/forge', { method: 'POST', headers: { ...JSON_TYPE, ...headers }, body: '{"kind":"unsigned"}' });
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code]).toEqual([status, code]);
    expect(bff.seen).toHaveLength(0);
  });

  it('takes its own origin', async () => {
    const res = await demo().request('http://localhost/demo/forge', { method: 'POST', headers: { ...JSON_TYPE, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' }, body: '{"kind":"unsigned"}' });
    expect(res.status).toBe(200);
  });

  it.each([
    ['unsigned', undefined],
    ['bad_signature', 'fresh'],
    ['stale', 'old'],
  ])('sends a %s webhook that a verifying receiver refuses', async (kind, stamp) => {
    const res = await demo().request('/demo/forge', { method: 'POST', headers: JSON_TYPE, body: JSON.stringify({ kind }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { kind: string; status: number; explanation: string; eventId: string };
    expect(body).toMatchObject({ kind, status: 401 });
    expect(body.eventId).toMatch(/^evt_forged_/);
    const ts = bff.seen[0]?.timestamp;
    if (stamp === undefined) expect(ts).toBeUndefined();
    else if (stamp === 'fresh') expect(Math.abs(Number(ts) - Date.now() / 1000)).toBeLessThan(5);
    else expect(Date.now() / 1000 - Number(ts)).toBeGreaterThan(500);
  });

  it('replays the latest real event with a valid signature', async () => {
    const app = demo();
    expect(((await (await app.request('/demo/forge', { method: 'POST', headers: JSON_TYPE, body: '{"kind":"replay"}' })).json()) as { status: unknown }).status).toBe('error');
    await sim.app.request('/v1/bots/b/messages/', { method: 'POST', headers: { authorization: 'Bearer t' }, body: JSON.stringify({ message: 'hi', webhookOnly: true }) });
    await sim.idle();
    const res = await app.request('/demo/forge', { method: 'POST', headers: JSON_TYPE, body: '{"kind":"replay"}' });
    expect(((await res.json()) as { status: number }).status).toBe(200);
  });

  it('validates the kind', async () => {
    const app = demo();
    expect((await app.request('/demo/forge', { method: 'POST', headers: JSON_TYPE, body: '{"kind":"nuke"}' })).status).toBe(400);
    expect((await app.request('/demo/forge', { method: 'POST', headers: JSON_TYPE, body: '{oops' })).status).toBe(400);
    expect(bff.seen).toHaveLength(0);
  });
});
