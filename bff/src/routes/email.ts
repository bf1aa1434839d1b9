import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { SessionResponse } from '../../../shared/types.js';
import type { AppDeps, AppEnv } from '../context.js';
import type { Continuity } from '../email/continuity.js';
import type { LinkTokens } from '../email/links.js';
import { escapeHtml } from '../email/markdown.js';
import { directionOf, emailLanguage, stringsOf } from '../email/strings.js';
import { AppError, AuthError, ForbiddenError } from '../errors.js';
import { clientIp } from '../lib/client-ip.js';
import { rateLimit } from '../middleware.js';
import { routeMounter } from './mount.js';

/**
 * The two links of an email to a visitor (docs/api.md "Continuity by email"): `POST /api/resume`
 * (the continue link, through the widget) and `/api/email/unsubscribe` (one-click `POST`, RFC 8058,
 * and a page with a button for a browser's `GET`).
 */
export function emailRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { config } = deps;
  const limit: MiddlewareHandler<AppEnv> = async (c, next) => {
    await rateLimit(deps, `session:${clientIp(c, config.trustProxy)}`, config.rateLimitSessionsPerMin);
    await next();
  };
  const route = routeMounter(app, deps);

  route('POST /api/resume', [limit], async (c) => {
    const { links } = emailOn(deps);
    const claims = await links.checkResume(c.req.valid('json').token);
    // A signed-in user's conversation opens only through their sign-in: a forwarded email must not open it.
    if ((await deps.users.ownerOf(claims.conversationId)) !== undefined) {
      throw new ForbiddenError('sign_in_required', 'This conversation belongs to an account: sign in to continue it');
    }
    const ttlMs = Math.max(1000, claims.expiresAt * 1000 - (deps.now?.() ?? Date.now()) + 60_000);
    if (!(await deps.onceStore.claim(`resume:${claims.linkId}`, ttlMs))) throw new AuthError('invalid_token', 'This link was already used');
    const pair = await deps.tokens.issue(claims.conversationId, c.req.header('origin'));
    const response: SessionResponse = { sessionId: claims.conversationId, ...pair };
    return c.json(response);
  });

  route('POST /api/email/unsubscribe', [limit], async (c) => {
    const { links, continuity } = emailOn(deps);
    const { conversationId, email } = await links.checkUnsubscribe(c.req.query('token'));
    await continuity.unsubscribe(conversationId, email);
    // The page's button (a browser) gets a page; a mail client's one-click POST, a short JSON answer.
    if (!(c.req.header('accept') ?? '').includes('text/html')) return c.json({});
    const language = emailLanguage((await continuity.recipientOf(conversationId))?.locale);
    const strings = stringsOf(language);
    return page(c, language, `<p role="status">${escapeHtml(strings.unsubscribed)}</p>`, 200);
  });

  route('GET /api/email/unsubscribe', [limit], async (c) => {
    const { links, continuity } = emailOn(deps);
    const token = c.req.query('token');
    let conversationId: string;
    try {
      ({ conversationId } = await links.checkUnsubscribe(token));
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
      return page(c, 'en', `<p>${escapeHtml(stringsOf('en').linkInvalid)}</p>`, 401);
    }
    const language = emailLanguage((await continuity.recipientOf(conversationId))?.locale);
    const strings = stringsOf(language);
    // A GET changes nothing: link scanners of mail providers open every link of an email.
    const action = `/api/email/unsubscribe?token=${encodeURIComponent(token!)}`;
    return page(c, language, `<p>${escapeHtml(strings.unsubscribeQuestion)}</p><form method="post" action="${escapeHtml(action)}"><button type="submit">${escapeHtml(strings.unsubscribeButton)}</button></form>`, 200);
  });

  return app;
}

function emailOn(deps: AppDeps): { links: LinkTokens; continuity: Continuity } {
  if (!deps.links || !deps.continuity) throw new AppError('feature_disabled', 'Email is not configured on this server');
  return { links: deps.links, continuity: deps.continuity };
}

function page(c: Context<AppEnv>, language: string, body: string, status: 200 | 401): Response {
  const strings = stringsOf(language);
  c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
  c.header('referrer-policy', 'no-referrer');
  return c.html(
    `<!doctype html><html lang="${language}" dir="${directionOf(language)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(strings.unsubscribeButton)}</title>` +
      '<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#111827}button{font:inherit;padding:.6rem 1.2rem;border-radius:.5rem;border:0;background:#1d4ed8;color:#fff;cursor:pointer}button:focus-visible{outline:3px solid #111827;outline-offset:2px}</style>' +
      `</head><body><main><h1>${escapeHtml(strings.unsubscribeButton)}</h1>${body}</main></body></html>`,
    status,
  );
}
