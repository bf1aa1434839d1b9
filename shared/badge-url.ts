/**
 * The one gate every URL in a badge passes through: only absolute http, https
 * and mailto links survive, in their normalised form.
 */

const URL_MAX = 2048;

// Anchored on the raw text, before the URL parser gets to forgive anything:
// `//evil.com`, `https:evil.com`, ` javascript:` and `java\tscript:` all fail here.
const ALLOWED_START = /^(?:https?:\/\/|mailto:)/i;

// Controls, invisible and exotic whitespace, and the backslash (which the URL
// parser reads as `/` in http links, so what is shown would differ from where it goes).
const FORBIDDEN =
  /[\u0000-\u001F\u007F-\u00A0\u1680\u180E\u2000-\u200F\u2028-\u202F\u205F-\u206F\u3000\uFEFF\\]/;

/** Returns the normalised URL when `value` is an absolute http, https or mailto link without credentials, else undefined. */
export function safeUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text.length === 0 || text.length > URL_MAX) return undefined;
  if (!ALLOWED_START.test(text) || FORBIDDEN.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol === 'mailto:') {
    if (!url.href.includes('@')) return undefined;
  } else if (url.protocol === 'http:' || url.protocol === 'https:') {
    if (url.hostname === '' || url.username !== '' || url.password !== '') return undefined;
  } else {
    return undefined;
  }
  // mailto paths keep literal spaces; encode them so the result is one token.
  const href = url.href.replace(/ /g, '%20');
  return href.length <= URL_MAX ? href : undefined;
}

/** Like `safeUrl`, but only http and https: for images and files, where mailto means nothing. */
export function httpUrl(value: unknown): string | undefined {
  const url = safeUrl(value);
  return url !== undefined && !url.startsWith('mailto:') ? url : undefined;
}

// Squeezed before matching, so `java\tscript:` and ` JaVaScRiPt:` are caught too.
const DANGEROUS_SCHEME = /^(?:javascript|vbscript|livescript|data|file|blob|about|filesystem):/;

/** True when `value` reads as a link that must never be followed (script/data schemes, protocol-relative). */
export function isDangerousLink(value: string): boolean {
  const squeezed = value.replace(/[\s\u0000-\u001F\u007F-\u009F\u200B-\u200F\u2060-\u206F\uFEFF]/g, '').toLowerCase();
  return DANGEROUS_SCHEME.test(squeezed) || squeezed.startsWith('//') || squeezed.startsWith('\\\\');
}

const IMAGE_PATH = /\.(?:png|jpe?g|gif|webp|svg|avif|bmp|ico)$/i;

/** True when a (safe, normalised) URL's path ends in a common image extension. */
export function looksLikeImageUrl(url: string): boolean {
  try {
    return IMAGE_PATH.test(new URL(url).pathname);
  } catch {
    return false;
  }
}

/** The last path segment of a URL, decoded, as a fallback file name. */
export function fileNameFromUrl(url: string): string | undefined {
  try {
    const segment = new URL(url).pathname.split('/').filter(Boolean).pop();
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
