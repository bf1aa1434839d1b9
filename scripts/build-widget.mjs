// `npm run build:widget`: the widget as two files (docs/embedding.md, "What the page pays").
// 1. The chat (Preact, signals, components, stream client): vite.config.ts builds it as an IIFE for
//    the loader to insert, plus widget.css and widget-locales/. Its name gets its content hash
//    (parley-chat.<hash>.js), so a cached copy can never mismatch its SRI hash.
// 2. The loader (widget.js), built with the chat's file name and integrity written into it.
// 3. widget.mjs for npm users, which import()s the chat as an ES module (parley-chat.<hash>.mjs).
// Usage: node scripts/build-widget.mjs [outDir]   (default dist/widget)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Builds both files into `outDir`; returns the chat file's name and integrity. */
export async function buildWidget(outDir = join(root, 'dist/widget'), logLevel = 'warn') {
  // NODE_ENV=test (vitest) would switch JSX to its development runtime.
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(root, 'vite.config.ts'), root, logLevel, build: { outDir, emptyOutDir: true } });
    const body = readFileSync(join(outDir, 'parley-chat.js'));
    const chunk = `parley-chat.${createHash('sha256').update(body).digest('hex').slice(0, 10)}.js`;
    for (const old of readdirSync(outDir)) if (/^parley-chat\.[0-9a-f]+\.js$/.test(old)) rmSync(join(outDir, old));
    renameSync(join(outDir, 'parley-chat.js'), join(outDir, chunk));
    const integrity = 'sha384-' + createHash('sha384').update(body).digest('base64');
    // The launcher's name in each served language, from the locale files the chat build wrote (one source).
    const labels = { en: 'Open chat' };
    for (const file of readdirSync(join(outDir, 'widget-locales'))) {
      labels[file.replace('.json', '')] = JSON.parse(readFileSync(join(outDir, 'widget-locales', file), 'utf8')).open;
    }
    await build({
      configFile: false,
      root,
      logLevel,
      define: { __PARLEY_CHUNK__: JSON.stringify(chunk), __PARLEY_CHUNK_SRI__: JSON.stringify(integrity), __PARLEY_OPEN_LABELS__: JSON.stringify(labels) },
      build: {
        outDir,
        emptyOutDir: false,
        target: 'es2020',
        minify: true,
        sourcemap: false,
        rolldownOptions: { output: { minify: true, comments: { annotation: false, legal: true, jsdoc: false } } },
        lib: { entry: join(root, 'widget/src/loader.ts'), name: 'ParleyLoader', formats: ['iife'], fileName: () => 'widget.js' },
      },
    });
    // 3. widget.mjs for npm users: the same API, with the chat as a module it import()s (widget/src/esm.ts).
    await build({
      configFile: join(root, 'vite.config.ts'),
      root,
      logLevel,
      build: {
        outDir,
        emptyOutDir: false,
        lib: { entry: join(root, 'widget/src/esm.ts'), formats: ['es'], fileName: () => 'widget.mjs' },
        rolldownOptions: { output: { chunkFileNames: 'parley-chat.[hash].mjs', minify: true, comments: { annotation: false, legal: true, jsdoc: false } } },
      },
    });
    return { chunk, integrity };
  } finally {
    process.env.NODE_ENV = env;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await buildWidget(process.argv[2] ? resolve(root, process.argv[2]) : undefined);
}
