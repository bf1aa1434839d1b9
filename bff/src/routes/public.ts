import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import type { PublicConfig } from '../../../shared/types.js';
import { TEXT_MAX_LENGTH } from '../../../shared/types.js';
import type { AppDeps, AppEnv } from '../context.js';
import { featuresOf } from '../features.js';
import { publicSettings } from '../config-schema/index.js';
import { AuthError, NotFoundError } from '../errors.js';
import { bearerToken } from '../middleware.js';
import { routeMounter } from './mount.js';
import { handoffNow } from '../people/handoff.js';
import { CODINGS, pickEncoding, type Coding } from '../lib/accept-encoding.js';

/** Every file of the widget's: public, the same for every site, revalidated daily. */
const ASSET_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'public, max-age=86400, stale-while-revalidate=604800',
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
  'x-content-type-options': 'nosniff',
};

/**
 * A widget file's bytes in the coding `Accept-Encoding` takes (br, then gzip, else as they are), with
 * `content-encoding` and `content-length` set in `headers` to match.
 */
function negotiated(accept: string | undefined, file: { body: Uint8Array; brotli?: Uint8Array; gzip?: Uint8Array }, headers: Record<string, string>): Uint8Array {
  const stored: Record<Coding, Uint8Array | undefined> = { br: file.brotli, gzip: file.gzip };
  const coding = pickEncoding(accept, CODINGS.filter((name) => stored[name]));
  const body = (coding && stored[coding]) ?? file.body;
  if (coding) headers['content-encoding'] = coding;
  headers['content-length'] = String(body.byteLength);
  return body;
}

/** Routes anyone may call: public settings, health, readiness and the widget script. */
export function publicRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = deps;
  const features = featuresOf(deps);

  // The settings marked public in the schema (config-schema/), and what is derived from several.
  const fromSchema = publicSettings(config);
  const publicConfig = {
    ...fromSchema,
    features: { escalation: features.escalation, upload: features.upload, flows: [...features.flows] },
    identity: !deps.identity ? 'off' : config.identityRequired ? 'required' : 'optional',
    limits: { textMaxLength: TEXT_MAX_LENGTH, ...fromSchema.limits },
    ...(config.prechatFields.length > 0 && { prechat: { fields: [...config.prechatFields], required: config.prechatRequired } }),
  } as PublicConfig;

  routeMounter(app, deps)('GET /api/config', [], (c) => {
    c.header('cache-control', 'public, max-age=60');
    // Open or closed changes with the clock, so it is worked out per request (a minute of caching is fine).
    return c.json({ ...publicConfig, handoff: handoffNow(config, deps.now?.() ?? Date.now()) });
  });

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.get('/readyz', async (c) => {
    try {
      await deps.store.ping();
      await deps.ready?.();
      return c.json({ status: 'ready' });
    } catch {
      return c.json({ status: 'not_ready', error: { code: 'store_unavailable', message: 'Event store unreachable' } }, 503);
    }
  });

  if (deps.metrics) {
    const metrics = deps.metrics;
    app.get('/metrics', async (c) => {
      // Optional bearer protection: metrics reveal traffic levels, not secrets.
      if (config.metricsToken && !bearerMatches(c.req.header('authorization'), config.metricsToken)) {
        throw new AuthError('unauthorized', 'Metrics need the metrics token');
      }
      return c.text(await metrics.render(), 200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
    });
  }

  const widget = deps.widget;
  const versioned = widget?.versioned;
  app.on(['GET', 'HEAD'], ['/widget.js', ...(versioned ? [versioned] : [])], (c) => {
    if (!widget) throw new NotFoundError('The widget is not built; run npm run build');
    const headers: Record<string, string> = {
      ...ASSET_HEADERS,
      'content-type': 'text/javascript; charset=utf-8',
      // The stable URL revalidates daily; the hashed URL never changes, so it is cached for a year.
      ...(c.req.path === versioned && { 'cache-control': 'public, max-age=31536000, immutable' }),
      etag: widget.etag,
      vary: 'Accept-Encoding',
    };
    if (c.req.header('if-none-match') === widget.etag) return c.body(null, 304, headers);
    const body = negotiated(c.req.header('accept-encoding'), widget, headers);
    if (c.req.method === 'HEAD') return c.body(null, 200, headers);
    return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
  });

  // The chat the loader fetches, and its parts and Markdown chunks: each name carries its content hash, so it never
  // changes (and a cached copy always matches the integrity written into the loader or the chat).
  for (const [name, chat] of widget?.chunks ?? []) {
    app.on(['GET', 'HEAD'], `/${name}`, (c) => {
      const headers: Record<string, string> = {
        ...ASSET_HEADERS,
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=31536000, immutable',
        vary: 'Accept-Encoding',
      };
      const body = negotiated(c.req.header('accept-encoding'), chat, headers);
      if (c.req.method === 'HEAD') return c.body(null, 200, headers);
      return c.body(body as Uint8Array<ArrayBuffer>, 200, headers);
    });
  }

  // The widget's CSS as a file, for browsers that cannot construct a stylesheet (Safari < 16.4).
  app.get('/widget.css', (c) => {
    if (!widget?.css) throw new NotFoundError('The widget is not built; run npm run build');
    return c.body(widget.css as Uint8Array<ArrayBuffer>, 200, { ...ASSET_HEADERS, 'content-type': 'text/css; charset=utf-8' });
  });

  // The widget's strings in languages besides English: small, public, the same for every site.
  app.get('/widget-locales/:file', (c) => {
    const body = widget?.locales.get(c.req.param('file'));
    if (!body) throw new NotFoundError('No strings for this language');
    return c.body(body as Uint8Array<ArrayBuffer>, 200, { ...ASSET_HEADERS, 'content-type': 'application/json; charset=utf-8' });
  });

  return app;
}

/**
 * True when `header` is `Bearer <expected>` (the scheme in any case). Compared as SHA-256 digests in
 * constant time, so neither the time taken nor a length tells how much of a guess was right.
 */
function bearerMatches(header: string | undefined, expected: string): boolean {
  const given = bearerToken(header) ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
