import type { AppDeps } from '../context.js';
import { ValidationError } from '../errors.js';
import { originAllowed } from '../middleware.js';

/**
 * A `pageUrl` from a request body (already without its fragment): only a page of an origin that
 * may use the chat, so an email's continue link can never lead elsewhere. `400` otherwise.
 */
export function checkPageUrl(deps: AppDeps, pageUrl: string | undefined): string | undefined {
  if (pageUrl === undefined) return undefined;
  if (!originAllowed(deps, new URL(pageUrl).origin)) throw new ValidationError('"pageUrl" must be a page of a site allowed to use the chat (ALLOWED_ORIGINS)');
  return pageUrl;
}

/** Remembers where and in which language a conversation started, for an email's continue link. Never throws. */
export async function notePage(deps: AppDeps, conversationId: string, pageUrl: string | undefined, locale: string | undefined): Promise<void> {
  if (!deps.continuity || (pageUrl === undefined && locale === undefined)) return;
  await deps.continuity.note(conversationId, { pageUrl, locale });
}
