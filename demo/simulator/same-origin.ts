import type { Context, MiddlewareHandler } from 'hono';
import { mediaTypeOf } from '../../shared/media-type.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * DEMO ONLY: the console's and the test hooks' routes take no credential, so a page on another site
 * must not change anything through the visitor's browser (CSRF). A state-changing request is refused
 * 403 when the browser calls it `Sec-Fetch-Site: cross-site` or names an `Origin` other than this one
 * (unless it says `same-origin`: a page cannot set that header, and a proxy may have rewritten `Host`),
 * and 415 when it has a body that is not `application/json` (a form or `text/plain`, which a foreign
 * page may send without asking). Node clients and tests send neither header and pass.
 */
export const sameOriginOnly: MiddlewareHandler = async (c, next) => {
  if (SAFE_METHODS.has(c.req.method)) return next();
  if (isForeign(c)) {
    return c.json({ error: { code: 'cross_site_refused', message: 'This demo route takes requests from its own pages only' } }, 403);
  }
  // Read here and kept by Hono, so the route reads the same text.
  if ((await c.req.text()).trim() !== '' && mediaTypeOf(c.req.header('content-type')) !== 'application/json') {
    return c.json({ error: { code: 'unsupported_media_type', message: 'Send the body as application/json' } }, 415);
  }
  await next();
};

function isForeign(c: Context): boolean {
  const fetchSite = c.req.header('sec-fetch-site');
  if (fetchSite === 'cross-site') return true;
  if (fetchSite === 'same-origin') return false;
  const origin = c.req.header('origin');
  return origin !== undefined && origin !== new URL(c.req.url).origin;
}
