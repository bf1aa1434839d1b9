// Runs after scripts/build-widget.mjs: prints the sizes and SRI hashes of widget.js (the loader), the chat, its parts and Markdown chunks and widget.mjs, writes manifest.json
// (read by the BFF and by integrators pinning the script) and the npm build's widget.d.ts.
// Usage: node scripts/widget-integrity.mjs [outDir]   (default dist/widget)
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Size and integrity of one built file. */
function describe(dir, file) {
  const body = readFileSync(join(dir, file));
  return {
    file,
    bytes: body.length,
    gzipBytes: gzipSync(body, { level: 9 }).length,
    brotliBytes: brotliCompressSync(body).length,
    integrity: 'sha384-' + createHash('sha384').update(body).digest('base64'),
  };
}

/** Reads `dir/widget.js` (the loader), the chat and its parts chunk, writes `dir/manifest.json`, returns the manifest. */
export function writeManifest(dir) {
  const chunk = readdirSync(dir).find((f) => /^parley-chat\.[\w-]+\.js$/.test(f));
  const parts = readdirSync(dir).find((f) => /^parley-parts\.[\w-]+\.js$/.test(f));
  const markdown = readdirSync(dir).find((f) => /^parley-markdown\.[\w-]+\.js$/.test(f));
  const loader = readFileSync(join(dir, 'widget.js'));
  const manifest = {
    ...describe(dir, 'widget.js'),
    // The same bytes under a name that changes with them, cached for a year (the BFF's versionedPath).
    versioned: `/widget-${createHash('sha256').update(loader).digest('base64url').slice(0, 8)}.js`,
    ...(chunk && { chat: describe(dir, chunk) }),
    ...(parts && { parts: describe(dir, parts) }),
    ...(markdown && { markdown: describe(dir, markdown) }),
    esm: describe(dir, 'widget.mjs'),
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/** Emits the public types (`widget/src/public-types.ts` and what it imports) and `dir/widget.d.ts`. */
export function writeTypes(dir) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const out = join(dir, 'types');
  const args = [
    tsc, join(root, 'widget/src/public-types.ts'),
    '--declaration', '--emitDeclarationOnly', '--outDir', out, '--rootDir', root,
    '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022',
    '--lib', 'es2023,dom', '--strict', '--skipLibCheck', '--types', 'node',
  ];
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error('tsc failed:\n' + result.stdout + result.stderr);
  const from = './' + relative(dir, join(out, 'widget/src/public-types.js')).split('\\').join('/');
  const dts = `import type { ParleyInstance, ParleyOptions } from '${from}';
export type * from '${from}';
/** Creates a widget; it shows once the DOM is ready. */
export declare function createParley(options?: ParleyOptions): ParleyInstance;
/** Creates the page's widget (replacing an earlier one), inline in \`<parley-chat>\` when the page has one. */
export declare function init(options?: ParleyOptions): ParleyInstance;
/** Fetches the chat module now (it is otherwise fetched when the first widget is created). */
export declare function preload(): Promise<unknown>;
`;
  // widget.d.ts for a package's "types" field; widget.d.mts is what TypeScript reads next to widget.mjs.
  writeFileSync(join(dir, 'widget.d.ts'), dts);
  writeFileSync(join(dir, 'widget.d.mts'), dts);
}

function main() {
  const dir = resolve(root, process.argv[2] || 'dist/widget');
  if (!existsSync(join(dir, 'widget.js'))) {
    console.error(`${relative(root, dir)}/widget.js is missing: run npm run build:widget first`);
    process.exit(1);
  }
  const m = writeManifest(dir);
  writeTypes(dir);
  const kb = (n) => (n / 1024).toFixed(2) + ' KB';
  for (const f of [m, m.chat, m.parts, m.markdown, m.esm].filter(Boolean)) {
    console.log(`${f.file.padEnd(26)} ${f.bytes} B (${kb(f.bytes)})  gzip ${f.gzipBytes} B (${kb(f.gzipBytes)})  brotli ${f.brotliBytes} B`);
    console.log(`${''.padEnd(26)} ${f.integrity}`);
  }
  console.log(`${'versioned URL'.padEnd(26)} ${m.versioned} (the same widget.js, cached for a year)`);
  console.log(`wrote      ${relative(root, join(dir, 'manifest.json'))}, widget.d.ts, widget.d.mts, types/`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
