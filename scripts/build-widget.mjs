// `npm run build:widget`: the widget's files (docs/embedding.md, "What the page pays").
// 1. The chat (Preact, signals, components, stream client), its parts chunk (parts.ts: what few
//    visitors need) and its Markdown chunk (markdown-render.ts: the parser and renderer), ES modules
//    built by vite.config.ts, plus widget.css and widget-locales/. Every name carries a content hash,
//    so a cached copy can never mismatch its integrity. The chunks import the chat by name, so their
//    integrity is written into the chat after the build (pin.ts).
// 2. The loader (widget.js), built with the chat's file name and integrity written into it.
// 3. widget.mjs for npm users, which import()s the same chat module.
// Usage: node scripts/build-widget.mjs [outDir]   (default dist/widget)
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { cssLines } from './css-lines.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const sri = (body) => 'sha384-' + createHash('sha384').update(body).digest('base64');
const MINIFY = { minify: true, comments: { annotation: false, legal: true, jsdoc: false } };

/** The one file in `dir` whose name matches `pattern`. */
function only(dir, pattern) {
  const found = readdirSync(dir).filter((f) => pattern.test(f));
  if (found.length !== 1) throw new Error(`expected one ${pattern} in ${dir}, found ${found.length}: ${found.join(', ')}`);
  return found[0];
}

/** Replaces the one `placeholder` in `text` (a second or missing one means the build changed shape). */
function fillIn(text, placeholder, value) {
  const parts = text.split(placeholder);
  if (parts.length !== 2) throw new Error(`expected ${placeholder} once in the chat, found it ${parts.length - 1} times`);
  return parts.join(value);
}

/** Builds every file into `outDir`; returns the chat file's name and integrity. */
export async function buildWidget(outDir = join(root, 'dist/widget'), logLevel = 'warn') {
  // NODE_ENV=test (vitest) would switch JSX to its development runtime.
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(root, 'vite.config.ts'), root, logLevel, build: { outDir, emptyOutDir: true } });
    const chunk = only(outDir, /^parley-chat\.[\w-]+\.js$/);
    const parts = only(outDir, /^parley-parts\.[\w-]+\.js$/);
    const markdown = only(outDir, /^parley-markdown\.[\w-]+\.js$/);
    let chat = readFileSync(join(outDir, chunk), 'utf8');
    chat = fillIn(chat, '__PARLEY_PARTS_FILE__', './' + parts);
    chat = fillIn(chat, '__PARLEY_PARTS_SRI__', sri(readFileSync(join(outDir, parts))));
    chat = fillIn(chat, '__PARLEY_MARKDOWN_FILE__', './' + markdown);
    chat = fillIn(chat, '__PARLEY_MARKDOWN_SRI__', sri(readFileSync(join(outDir, markdown))));
    writeFileSync(join(outDir, chunk), chat);
    const integrity = sri(chat);
    // The loader's words in each served language (the launcher's name, its frame's text box's placeholder),
    // from the locale files the chat build wrote (one source; English is built into the chat).
    const words = (t) => [t.open, t.placeholder];
    const labels = { en: words({ open: 'Open chat', placeholder: 'Type a message…' }) };
    for (const file of readdirSync(join(outDir, 'widget-locales'))) {
      labels[file.replace('.json', '')] = words(JSON.parse(readFileSync(join(outDir, 'widget-locales', file), 'utf8')));
    }
    /** A small file beside the chat, outside vite.config.ts (no Preact, no locale assets). */
    const beside = (lib, extra) =>
      build({
        configFile: false,
        root,
        logLevel,
        ...extra,
        build: { outDir, emptyOutDir: false, target: 'es2020', minify: true, sourcemap: false, rolldownOptions: { output: MINIFY }, lib },
      });
    await beside(
      { entry: join(root, 'widget/src/loader.ts'), name: 'ParleyLoader', formats: ['iife'], fileName: () => 'widget.js' },
      { plugins: [cssLines()], define: { __PARLEY_CHUNK__: JSON.stringify(chunk), __PARLEY_CHUNK_SRI__: JSON.stringify(integrity), __PARLEY_LABELS__: JSON.stringify(labels) } },
    );
    // 3. widget.mjs for npm users: the same API, with the chat as the module it import()s (widget/src/esm.ts).
    await beside(
      { entry: join(root, 'widget/src/esm.ts'), formats: ['es'], fileName: () => 'widget.mjs' },
      { plugins: [{ name: 'parley-chat-module', enforce: 'pre', resolveId: (id) => (id === './chat.js' ? { id: './' + chunk, external: true } : undefined) }] },
    );
    return { chunk, integrity };
  } finally {
    process.env.NODE_ENV = env;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  await buildWidget(process.argv[2] ? resolve(root, process.argv[2]) : undefined);
}
