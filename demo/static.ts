import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Finds `demo/site`. From source this module sits in `demo/`; compiled it sits in
 * `dist/server/demo/` while the static files stay in `demo/site/`, so walk up until found.
 */
export function findSiteDir(start: string = dirname(fileURLToPath(import.meta.url))): string {
  if (basename(start) === 'demo' && existsSync(join(start, 'site', 'index.html'))) return join(start, 'site');
  let dir = start;
  for (let i = 0; i < 6; i++) {
    const candidate = join(dir, 'demo', 'site');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`demo/site not found above ${start}`);
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  txt: 'text/plain; charset=utf-8',
};

// Flat names only: no slashes, no dots but the extension, so no path can leave the folder.
const SAFE_NAME = /^[a-z0-9][a-z0-9-]*\.(html|js|css|svg|txt)$/;

/** Reads `sub/name` from the site folder; undefined for an unsafe name or a missing file. */
export async function readSiteFile(siteDir: string, sub: '' | 'assets', name: string): Promise<{ body: string; type: string } | undefined> {
  const ext = SAFE_NAME.exec(name)?.[1];
  if (!ext) return undefined;
  try {
    const body = await readFile(join(siteDir, sub, name), 'utf8');
    return { body, type: TYPES[ext] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}

/** Escapes text for an HTML attribute or element body. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** The strict CSP of every demo page; images may also come from the simulator's public origin. */
export function pageCsp(publicOrigin?: string): string {
  const img = ["'self'", 'data:'];
  if (publicOrigin && /^https?:\/\/[^\s;,']+$/.test(publicOrigin)) img.push(publicOrigin);
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src ${img.join(' ')}`,
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}
