import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Hono, type Context } from 'hono';
import { SignJWT } from 'jose';
import { FORGE_KINDS, forgeWebhook, type ForgeKind } from './forge.js';
import type { Inspector } from './inspector.js';
import type { Simulator } from './simulator/index.js';
import { sameOriginOnly } from './simulator/same-origin.js';
import { escapeHtml, findSiteDir, pageCsp, readSiteFile } from './static.js';

export interface DemoDeps {
  inspector: Inspector;
  simulator: Simulator;
  /** Origin the simulator builds image URLs with; also where forged webhooks are sent. */
  publicOrigin?: string;
  /** Path where the server mounts `simulator.app` (default `/sim`); the console calls its operator API there. */
  simulatorBase?: string;
  /** Full URL of the BFF's webhook endpoint for forged webhooks (default: `{publicOrigin or 127.0.0.1:PORT}/webhooks/agent`). */
  webhookTarget?: string;
  /** Key of the shop's identity tokens (the BFF's IDENTITY_SECRET); without it nobody can sign in. */
  identitySecret?: string;
  /** Model mode answers in prose: the shop then leaves out the buttons that ask for badges and a person. */
  chatMode?: 'agent' | 'model';
  /** Override of the `demo/site` folder (tests). */
  siteDir?: string;
  fetch?: typeof fetch;
  /** OPERATOR_PROFILES: the console lists these usernames and shows their display names. */
  operators?: Readonly<Record<string, { name?: string; avatarUrl?: string }>>;
}

/**
 * The stakeholder demo: the fictional shop with the widget embedded (`/`), the operator
 * console (`/console`), the webhook inspector page (`/inspector`), their static files, and
 * `POST /demo/forge`. The inspector's own feed (`inspector.app`) is mounted by the server.
 */
export function createDemoRoutes(deps: DemoDeps): Hono {
  const siteDir = deps.siteDir ?? findSiteDir();
  const simBase = (deps.simulatorBase ?? '/sim').replace(/\/+$/, '');
  const csp = pageCsp(deps.publicOrigin);
  const app = new Hono();

  app.onError((_err, c) => c.json({ error: { code: 'internal_error', message: 'The demo failed to answer' } }, 500));

  const page = (file: string, values: (c: Context) => Record<string, string>) => async (c: Context) => {
    const found = await readSiteFile(siteDir, '', file);
    if (!found) return c.json({ error: { code: 'not_found', message: `Demo page ${file} is missing` } }, 404);
    const vars = values(c);
    const html = found.body.replace(/\{\{([A-Z_]+)\}\}/g, (m, key: string) => (key in vars ? escapeHtml(vars[key] ?? '') : m));
    c.header('content-security-policy', csp);
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    c.header('cache-control', 'no-cache');
    return c.html(html);
  };

  // The integrator's snippet gets this server's own origin, so the page works on any host and port.
  app.get('/', page('index.html', (c) => ({ ORIGIN: new URL(c.req.url).origin, CHAT_MODE: deps.chatMode ?? 'agent' })));
  app.get('/console', page('console.html', () => ({ SIM_BASE: simBase })));
  app.get('/inspector', page('inspector.html', () => ({ SIM_BASE: simBase })));

  const asset = (sub: '' | 'assets') => async (c: Context) => {
    const found = await readSiteFile(siteDir, sub, c.req.param('file') ?? '');
    if (!found) return c.json({ error: { code: 'not_found', message: 'No such demo file' } }, 404);
    c.header('content-type', found.type);
    c.header('x-content-type-options', 'nosniff');
    // Images are shown inside the widget, which may live on another origin.
    if (sub === 'assets') c.header('cross-origin-resource-policy', 'cross-origin');
    c.header('cache-control', 'no-cache');
    return c.body(found.body);
  };
  app.get('/demo/operators.json', (c) => c.json(deps.operators ?? {}));
  // The console renders Markdown with marked's own ESM build, the package the simulator uses too.
  app.get('/demo/vendor/marked.js', async (c) => {
    markedSource ??= readFile(fileURLToPath(import.meta.resolve('marked')), 'utf8');
    c.header('content-type', 'text/javascript; charset=utf-8');
    c.header('x-content-type-options', 'nosniff');
    c.header('cache-control', 'no-cache');
    return c.body(await markedSource);
  });
  app.get('/demo/site/:file', asset(''));
  app.get('/demo/assets/:file', asset('assets'));

  // The shop's own backend, in miniature: it knows its signed-in customer and vouches for them.
  app.post('/demo/identity', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { customer?: unknown };
    const customer = typeof body.customer === 'string' ? SAMPLE_CUSTOMERS[body.customer] : undefined;
    if (!customer) return c.json({ error: { code: 'invalid_request', message: `"customer" must be one of: ${Object.keys(SAMPLE_CUSTOMERS).join(', ')}` } }, 400);
    if (!deps.identitySecret) return c.json({ error: { code: 'feature_disabled', message: 'Identity is off: IDENTITY_SECRET is not set' } }, 403);
    return c.json({ identityToken: await mintIdentityToken(customer, deps.identitySecret), name: customer.name });
  });

  app.post('/demo/forge', sameOriginOnly, async (c) => {
    let kind: unknown = 'bad_signature';
    const text = await c.req.text();
    if (text.trim() !== '') {
      try {
        kind = (JSON.parse(text) as { kind?: unknown }).kind ?? kind;
      } catch {
        return c.json({ error: { code: 'invalid_json', message: 'The body must be JSON like {"kind":"unsigned"}' } }, 400);
      }
    }
    if (typeof kind !== 'string' || !(FORGE_KINDS as readonly string[]).includes(kind)) {
      return c.json({ error: { code: 'invalid_request', message: `"kind" must be one of: ${FORGE_KINDS.join(', ')}` } }, 400);
    }
    const result = await forgeWebhook(kind as ForgeKind, { simulator: deps.simulator, target: webhookTarget(deps, c), fetch: deps.fetch });
    return c.json(result);
  });

  return app;
}

/** marked's ESM build, read once. */
let markedSource: Promise<string> | undefined;

/** The shop's two sample customers, by the key the page sends. */
const SAMPLE_CUSTOMERS: Record<string, { id: string; name: string; email: string }> = {
  ada: { id: 'nimbus-1001', name: 'Ada Lovelace', email: 'ada@nimbus-outdoor.example' },
  ben: { id: 'nimbus-1002', name: 'Ben Okafor', email: 'ben@nimbus-outdoor.example' },
};

/** An identity token for `customer`, as docs/signed-in-users.md shows a site's backend minting one. */
function mintIdentityToken(customer: { id: string; name: string; email: string }, secret: string): Promise<string> {
  return new SignJWT({ name: customer.name, email: customer.email })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(customer.id)
    .setAudience('parley-identity')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(secret));
}

function webhookTarget(deps: DemoDeps, c: Context): string {
  if (deps.webhookTarget) return deps.webhookTarget;
  if (deps.publicOrigin) return `${deps.publicOrigin.replace(/\/+$/, '')}/webhooks/agent`;
  const url = new URL(c.req.url);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `http://127.0.0.1:${port}/webhooks/agent`;
}
