import { minify } from 'terser';
import { defineConfig } from 'vitest/config';
import { SERVED_LOCALES } from './widget/src/i18n.js';
import de from './widget/src/locales/de.js';
import { CSS } from './widget/src/styles.js';
import fr from './widget/src/locales/fr.js';

const LOCALES: Record<string, object> = { de, fr };

// One config: the chat's build (an IIFE the loader inserts; scripts/build-widget.mjs then builds the
// loader, widget.js, and widget.mjs for npm users from it) and the test projects.
export default defineConfig({
  plugins: [
    {
      // What classic JSX calls, in every component file (Vite's jsxInject reaches .ts files too).
      name: 'parley-jsx-factory',
      enforce: 'pre',
      transform(code, id) {
        if (id.endsWith('.tsx')) return { code: "import { h, Fragment } from 'preact';" + code, map: null };
      },
    },
    {
      // A second minifier pass over each finished file: terser (two compress passes) finds about
      // 150 B gzip more than Rolldown's minifier alone. Only safe transforms: the signals' getters
      // have effects, so nothing assumes property reads are pure.
      name: 'parley-terser',
      async generateBundle(output, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk') continue;
          const result = await minify(file.code, { ecma: 2020, module: output.format === 'es', compress: { passes: 2 }, format: { comments: /^!/ } });
          file.code = result.code!;
        }
      },
    },
    {
      // Served beside widget.js and fetched by the widget when needed: languages besides English,
      // and the CSS for browsers that cannot construct a stylesheet.
      name: 'parley-assets',
      generateBundle(output) {
        if (output.format !== 'iife') return;
        this.emitFile({ type: 'asset', fileName: 'widget.css', source: CSS });
        for (const lang of SERVED_LOCALES) {
          this.emitFile({ type: 'asset', fileName: `widget-locales/${lang}.json`, source: JSON.stringify(LOCALES[lang]) });
        }
      },
    },
  ],
  // Classic JSX (`h(type, props, ...children)`): smaller calls than the automatic runtime's, and no
  // jsx-runtime module in the bundle. Type checking keeps `jsxImportSource: preact` (tsconfig.json).
  oxc: { jsx: { runtime: 'classic', pragma: 'h', pragmaFrag: 'Fragment' } },
  build: {
    outDir: 'dist/widget',
    emptyOutDir: true,
    target: 'es2020',
    minify: true,
    sourcemap: false,
    // Vite keeps whitespace in an ES library build; ours is one finished module, so minify it all,
    // and without the /* @__PURE__ */ marks a bundler would use to drop parts of it (none can go).
    rolldownOptions: { output: { minify: true, comments: { annotation: false, legal: true, jsdoc: false } } },
    // The chat as the loader inserts it (scripts/build-widget.mjs adds the hash, and builds widget.mjs).
    lib: { entry: 'widget/src/main.ts', name: 'ParleyWidget', formats: ['iife'], fileName: () => 'parley-chat.js' },
  },
  test: {
    projects: [
      {
        extends: true,
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
