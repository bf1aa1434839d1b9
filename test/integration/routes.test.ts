import { describe, expect, it } from 'vitest';
import { createApp } from '../../bff/src/app.js';
import { loadConfig } from '../../bff/src/config.js';
import type { AppDeps } from '../../bff/src/context.js';
import { MemoryOnceStore, MemoryRateLimiter, MemoryStartRecords } from '../../bff/src/adapters/memory-limits.js';
import { MemoryEventStore } from '../../bff/src/adapters/memory-store.js';
import { MemoryUserDirectory } from '../../bff/src/adapters/memory-users.js';
import { silentLogger } from '../../bff/src/logger.js';
import { Heartbeat } from '../../bff/src/lib/sse.js';
import { TokenService } from '../../bff/src/lib/tokens.js';
import { WebhookVerifier } from '../../bff/src/lib/webhook-verify.js';
import { OTHER_ROUTES, ROUTES, type RouteKey } from '../../shared/routes.js';

// The route table (shared/routes.ts) walked against the app: a route in it that the BFF does not
// mount, or one the BFF mounts under /api outside it, fails here rather than as a 404 in a browser.
const config = loadConfig({ DEMO: 'true' });
const tokens = new TokenService({ secret: config.sessionJwtSecret, accessTtlSec: 900, refreshTtlSec: 3600, onceStore: new MemoryOnceStore() });
const body = new TextEncoder().encode('/*widget*/');
const deps: AppDeps = {
  config,
  store: new MemoryEventStore({ maxEvents: 10, maxAgeMs: 60_000, dedupTtlMs: 60_000 }),
  rateLimiter: new MemoryRateLimiter(),
  onceStore: new MemoryOnceStore(),
  starts: new MemoryStartRecords(),
  chat: {} as AppDeps['chat'], // no request here gets past the checks in front of the service
  tokens,
  users: new MemoryUserDirectory(),
  verifier: new WebhookVerifier({ secrets: ['unused'] }),
  heartbeat: new Heartbeat(60_000),
  logger: silentLogger,
  metrics: { render: async () => '' },
  widget: { body, etag: '"a"', integrity: 'sha384-x', locales: new Map(), chunks: new Map() },
};
const app = createApp(deps);
const keys = Object.keys(ROUTES) as RouteKey[];
const split = (key: string) => key.split(' ') as [string, string];
/** A concrete URL of a path: every `:param` filled in. */
const urlOf = (path: string) => path.replace(/:[A-Za-z]+/g, 'x1');
const mounted = (method: string, path: string) => app.routes.some((r) => r.method === method && r.path === path);

describe('the route table against the app', () => {
  it.each(keys)('mounts %s', (key) => {
    const [method, path] = split(key);
    expect(mounted(method, path)).toBe(true);
  });

  it('mounts nothing under /api that the table does not hold', () => {
    const apiRoutes = app.routes.filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/')).map((r) => `${r.method} ${r.path}`);
    expect([...new Set(apiRoutes)].filter((k) => !(k in ROUTES))).toEqual([]);
  });

  it.each([...OTHER_ROUTES])('mounts %s outside the table', (key) => {
    const [method, path] = split(key);
    expect(mounted(method, path)).toBe(true);
  });

  it.each(keys)("answers %s with its caller's check: a token where one is needed", async (key) => {
    const [method, path] = split(key);
    const res = await app.request(urlOf(path), { method });
    const data = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
    expect(data.error?.code, key).not.toBe('not_found');
    if (ROUTES[key].caller === 'anyone') expect(res.status, key).not.toBe(401);
    else expect([res.status, data.error?.code], key).toEqual([401, 'unauthorized']);
  });

  const jsonRoutes = keys.filter((key) => 'body' in ROUTES[key] && !('form' in ROUTES[key]));
  it.each(jsonRoutes)('reads %s as a JSON body within its limits (another media type: 415)', async (key) => {
    const [method, path] = split(key);
    const { token } = await tokens.issue('c-routes', undefined);
    const res = await app.request(urlOf(path), { method, body: 'text', headers: { 'content-type': 'text/plain', authorization: `Bearer ${token}` } });
    expect([res.status, ((await res.json()) as { error: { code: string } }).error.code], key).toEqual([415, 'unsupported_media_type']);
  });

  // What each schema answers for a body without its fields: IdentifyBody takes any token and leaves it to the
  // identity check, so it is left out; ResumeBody refuses a missing link token as one that does not work.
  const refusals: Partial<Record<RouteKey, [number, string]>> = {
    'POST /api/resume': [401, 'invalid_token'],
    'PATCH /api/user': [403, 'variable_not_allowed'],
    'POST /api/token': [400, 'invalid_request'],
    'POST /api/feedback': [400, 'invalid_request'],
    'POST /api/csat': [400, 'csat_invalid'],
    'POST /api/contact': [400, 'contact_invalid'],
  };
  it.each(jsonRoutes.filter((key) => key !== 'POST /api/identify'))("checks %s's body by the table's schema", async (key) => {
    const [method, path] = split(key);
    const { token } = await tokens.issue('c-routes-2', undefined);
    const res = await app.request(urlOf(path), { method, body: JSON.stringify({ unknownField: [1] }), headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } });
    const data = (await res.json()) as { error: { code: string } };
    expect([res.status, data.error.code], key).toEqual(refusals[key] ?? [400, 'text_invalid']);
  });
});
