import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';
import { transformWithOxc } from 'vite';
import { defineConfig } from 'vitest/config';
import { badgeCss, cssLines, joinRules } from './scripts/css-lines.mjs';
import { MARKDOWN_CSS } from './widget/src/markdown-styles.js';
import { PARTS_CSS } from './widget/src/parts-styles.js';
import { CSS } from './widget/src/styles.js';

// The languages besides English: one file each in widget/src/locales, nothing else to list.
// Each badge kind's file, with its CSS (scripts/css-lines.mjs).
const BADGES_DIR = fileURLToPath(new URL('./widget/src/badges/', import.meta.url));
const LOCALES_DIR = fileURLToPath(new URL('./widget/src/locales/', import.meta.url));
const LOCALES = readdirSync(LOCALES_DIR)
  .filter((f) => /^[a-z]{2}\.ts$/.test(f))
  .map((f) => f.slice(0, 2))
  .sort();

// One config: the chat's build (ES modules: the chat, which the loader inserts and npm users'
// widget.mjs imports, and the parts chunk it imports when needed; scripts/build-widget.mjs then
// builds the loader, widget.js, from it) and the test projects.
export default defineConfig({
  plugins: [
    cssLines(),
    {
      // What classic JSX calls, in every component file (Vite's jsxInject reaches .ts files too).
      name: 'parley-jsx-factory',
      enforce: 'pre',
      transform(code, id) {
        if (id.endsWith('.tsx')) return { code: "import { h, Fragment } from 'preact';" + code, map: null };
      },
    },
    {
      // Terser (two compress passes) over each chunk, before Rolldown's own minifier: it finds about
      // 150 B gzip more than Rolldown's alone. Here, not after the bundle is written, so the file
      // name's hash covers what is served (a later pass left one name for two contents); the chat
      // also came out 75 B gzip smaller this way (40,884 B against 40,959 B).
      // No transform that assumes property reads are pure: the signals' getters have effects.
      // `unsafe_arrows` (about 40 B gzip of those 75) turns function expressions that never read
      // `this` into arrows; it would break one called with `new` or whose prototype is read, which
      // nothing in the bundles does (Preact calls a function component as a method, never with
      // `new`), and the browser tests run the built files.
      name: 'parley-terser',
      renderChunk: {
        order: 'post',
        async handler(code, _chunk, output) {
          const result = await minify(code, { ecma: 2020, module: output.format === 'es', compress: { passes: 2, unsafe_arrows: true }, format: { comments: /^!/ } });
          return { code: result.code!, map: null };
        },
      },
    },
    {
      // Served beside widget.js and fetched by the widget when needed: languages besides English,
      // and the CSS for browsers that cannot construct a stylesheet.
      name: 'parley-assets',
      async generateBundle(output) {
        if (output.format !== 'es') return;
        this.emitFile({ type: 'asset', fileName: 'widget.css', source: joinRules(CSS + MARKDOWN_CSS + PARTS_CSS + badgeCss(BADGES_DIR)) });
        for (const lang of LOCALES) {
          // The file compiled as Vite compiles it (its only import is a type, so it stands alone), run once for its strings.
          const file = `${LOCALES_DIR}${lang}.ts`;
          const { code } = await transformWithOxc(readFileSync(file, 'utf8'), file);
          const strings = ((await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as { default: object }).default;
          this.emitFile({ type: 'asset', fileName: `widget-locales/${lang}.json`, source: JSON.stringify(strings) });
        }
      },
    },
  ],
  // Classic JSX (`h(type, props, ...children)`): smaller calls than the automatic runtime's, and no
  // jsx-runtime module in the bundle. Type checking keeps `jsxImportSource: preact` (tsconfig.json).
  oxc: { jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' } },
  // The list the widget fetches from (i18n.ts SERVED_LOCALES), made from the folder above.
  define: { __PARLEY_LOCALES__: JSON.stringify(LOCALES) },
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2020',
    minify: true,
    sourcemap: false,
    // Vite keeps whitespace in an ES library build; ours is one finished module, so minify it all,
    // and without the /* @__PURE__ */ marks a bundler would use to drop parts of it (none can go).
    // allow-extension: the parts and Markdown chunks import Preact and the rest from the chat itself, not from a third file.
    rolldownOptions: {
      preserveEntrySignatures: 'allow-extension',
      output: {
        minify: true,
        comments: { annotation: false, legal: true, jsdoc: false },
        chunkFileNames: (chunk) => (chunk.name === 'markdown-render' ? 'parley-markdown.[hash].js' : 'parley-parts.[hash].js'),
      },
    },
    // Named by content hash, so a cached copy always matches the integrity the loader carries.
    lib: {
      entry: { 'parley-chat': 'widget/src/chat.ts' },
      formats: ['es'],
      fileName: (_format, name) => (name === 'widget' ? 'widget.mjs' : `${name}.[hash].js`),
    },
  },
  test: {
    projects: [
      {
        extends: true,
        // The demo pages load marked from the demo's vendor path (demo/routes.ts); tests use the package.
        resolve: { alias: { '/demo/vendor/marked.js': 'marked' } },
        test: {
          name: 'unit',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'bff/**/*.test.ts', 'demo/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/contract/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'widget',
          environment: 'happy-dom',
          include: ['widget/**/*.test.{ts,tsx}'],
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // A real browser on a shared CI machine: a test that fails is run once more, and the
          // report still lists it as flaky (a real regression fails both times).
          retry: process.env.CI ? 1 : 0,
        },
      },
      {
        extends: true,
        test: {
          name: 'redis',
          environment: 'node',
          include: ['test/redis/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
