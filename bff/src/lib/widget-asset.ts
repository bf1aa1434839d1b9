import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlib } from 'node:zlib';
import type { WidgetAsset } from '../context.js';

type Chunk = WidgetAsset['chunks'] extends ReadonlyMap<string, infer C> ? C : never;

/** The repository root: the nearest folder above this module with Parley's package.json (source or dist). */
export function projectRoot(from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && /"name":\s*"parley"/.test(readFileSync(pkg, 'utf8'))) return dir;
    const up = dirname(dir);
    if (up === dir) return process.cwd();
    dir = up;
  }
}

/**
 * The never-changing URL of these widget.js bytes, cached for a year: `/widget-<first 8 of the
 * SHA-256, base64url>.js`. scripts/widget-integrity.mjs writes the same into manifest.json.
 */
export function versionedPath(body: Uint8Array): string {
  return `/widget-${createHash('sha256').update(body).digest('base64url').slice(0, 8)}.js`;
}

/** Loads `dist/widget/widget.js` (pre-compressed) and its locale files once; undefined when it is not built. */
export function loadWidgetAsset(root = projectRoot()): WidgetAsset | undefined {
  const dir = join(root, 'dist', 'widget');
  const file = join(dir, 'widget.js');
  if (!existsSync(file)) return undefined;
  const body = readFileSync(file);
  const localeDir = join(dir, 'widget-locales');
  const locales = new Map<string, Uint8Array>();
  for (const name of existsSync(localeDir) ? readdirSync(localeDir) : []) {
    if (/^[a-z]{2}\.json$/.test(name)) locales.set(name, readFileSync(join(localeDir, name)));
  }
  const css = join(dir, 'widget.css');
  const chunks = new Map<string, Chunk>();
  for (const name of readdirSync(dir).filter((f) => /^parley-(chat|parts|markdown)\.[\w-]+\.js$/.test(f))) {
    const body = readFileSync(join(dir, name));
    chunks.set(name, { body, gzip: gzipSync(body, { level: 9 }), brotli: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }) });
  }
  return {
    chunks,
    locales,
    ...(existsSync(css) && { css: readFileSync(css) }),
    body,
    gzip: gzipSync(body, { level: 9 }),
    brotli: brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`,
    versioned: versionedPath(body),
    integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
  };
}
