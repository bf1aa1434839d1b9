/**
 * `npx tsx bench/markdown-parsers.ts`: the candidates for the widget's Markdown parser side by side
 * (docs/design-choices.md, "Answers' Markdown"): the gzip size of the parser as the widget would
 * bundle it (minified, gzip -9), how many CommonMark 0.31.2 spec examples its own HTML output gets
 * right, and how long it takes to parse large and hostile inputs to its tree in Node.
 */
import { build } from 'esbuild';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import * as commonmark from 'commonmark';
import { Lexer, marked } from 'marked';
import { micromark } from 'micromark';
import { gfmAutolinkLiteral, gfmAutolinkLiteralHtml } from 'micromark-extension-gfm-autolink-literal';
import { gfmStrikethrough, gfmStrikethroughHtml } from 'micromark-extension-gfm-strikethrough';
import { gfmTable, gfmTableHtml } from 'micromark-extension-gfm-table';
import { gfmTaskListItem, gfmTaskListItemHtml } from 'micromark-extension-gfm-task-list-item';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';

const require = createRequire(import.meta.url);
const spec = require('commonmark-spec') as { tests: { markdown: string; html: string; section: string }[] };

const extensions = [gfmTable(), gfmStrikethrough(), gfmTaskListItem(), gfmAutolinkLiteral()];
const mdastExtensions = [gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTaskListItemFromMarkdown(), gfmAutolinkLiteralFromMarkdown()];

const candidates = {
  'micromark + mdast-util-from-markdown + GFM': {
    entry: `import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmAutolinkLiteral } from 'micromark-extension-gfm-autolink-literal';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { gfmAutolinkLiteralFromMarkdown } from 'mdast-util-gfm-autolink-literal';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
export const parse = (s) => fromMarkdown(s, { extensions: [gfmTable(), gfmStrikethrough(), gfmTaskListItem(), gfmAutolinkLiteral()], mdastExtensions: [gfmTableFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTaskListItemFromMarkdown(), gfmAutolinkLiteralFromMarkdown()] });`,
    html: (s: string) => micromark(s, { extensions, htmlExtensions: [gfmTableHtml(), gfmStrikethroughHtml(), gfmTaskListItemHtml(), gfmAutolinkLiteralHtml()] }),
    // Core CommonMark only for the spec (the GFM autolink extension links `www.` text some examples keep).
    specHtml: (s: string) => micromark(s),
    parse: (s: string) => fromMarkdown(s, { extensions, mdastExtensions }),
  },
  'commonmark.js (no GFM)': {
    entry: `import { Parser } from 'commonmark'; export const parse = (s) => new Parser().parse(s);`,
    html: (s: string) => new commonmark.HtmlRenderer().render(new commonmark.Parser().parse(s)),
    specHtml: (s: string) => new commonmark.HtmlRenderer().render(new commonmark.Parser().parse(s)),
    parse: (s: string) => new commonmark.Parser().parse(s),
  },
  "marked's lexer (GFM)": {
    entry: `import { Lexer } from 'marked'; export const parse = (s) => Lexer.lex(s, { gfm: true });`,
    html: (s: string) => marked.parse(s, { async: false, gfm: true }) as string,
    specHtml: (s: string) => marked.parse(s, { async: false, gfm: false }) as string,
    parse: (s: string) => Lexer.lex(s, { gfm: true }),
  },
};

/** HTML compared as the spec's runner does, roughly: whitespace between tags and inside them is not a difference. */
const norm = (html: string) => html.replace(/\s+/g, ' ').replace(/\s*(<\/?[a-z0-9]+[^>]*>)\s*/g, '$1').replace(/ \/>/g, '>').trim();

async function gzipBytes(entry: string): Promise<number> {
  const out = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: 'js' },
    bundle: true, minify: true, format: 'esm', platform: 'browser', write: false, target: 'es2020',
    // The widget bundles the table of named character references rather than the DOM decoder (which writes innerHTML).
    alias: { 'decode-named-character-reference': require.resolve('decode-named-character-reference').replace(/index\.dom\.js$/, 'index.js') },
  });
  return gzipSync(out.outputFiles[0]!.contents, { level: 9 }).length;
}

const time = (f: () => unknown, runs = 3) => {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    best = Math.min(best, performance.now() - t);
  }
  return best;
};

const answer = `## Returns\n\nYou can return **any item** within _30 days_. Here is how:\n\n1. Open [your orders](https://shop.example/orders).\n2. Choose **Return**:\n   \`\`\`bash\n   curl https://shop.example/api/orders/NO-48213\n   \`\`\`\n3. Pack it.\n\n| Size | EU | US |\n|---|---:|---|\n| M | 42 | 9 |\n| L | 44 | 10 |\n\n> Keep the receipt.\n\n- [x] paid ~~€5~~ free\n- [ ] shipped, see www.shop.example/track\n\n`;
const inputs: Record<string, string> = {
  '1 MB of typical answers': answer.repeat(Math.ceil(1e6 / answer.length)),
  '2,000 nested >': '>'.repeat(2000) + ' deep',
  '2,000 × 40 table': ['|' + ' h |'.repeat(40), '|' + '---|'.repeat(40), ...Array.from({ length: 2000 }, (_, r) => '|' + ` c${r} |`.repeat(40))].join('\n'),
  '80 KB of [a](': '[a]('.repeat(20_000),
  '900 KB, 3,000-deep list': Array.from({ length: 3000 }, (_, i) => ' '.repeat(i * 2) + '- item ' + 'x'.repeat(300 - Math.min(i, 290))).join('\n').slice(0, 900_000),
};

// `npx tsx bench/markdown-parsers.ts marked` measures the candidates whose name contains the word.
const only = process.argv[2]?.toLowerCase();
for (const [name, c] of Object.entries(candidates)) {
  if (only && !name.toLowerCase().includes(only)) continue;
  let pass = 0;
  for (const t of spec.tests) {
    try {
      if (norm(c.specHtml(t.markdown)) === norm(t.html)) pass++;
    } catch {
      /* a throw is a failure */
    }
  }
  console.log(`\n${name}: ${await gzipBytes(c.entry)} B gzip; CommonMark spec ${pass}/${spec.tests.length}`);
  for (const [label, src] of Object.entries(inputs)) {
    let ms: number | string;
    try {
      ms = time(() => c.parse(src)).toFixed(0) + ' ms';
    } catch (e) {
      ms = 'throws ' + (e as Error).message.slice(0, 40);
    }
    console.log(`  ${label} (${(src.length / 1024).toFixed(0)} KB): ${ms}`);
  }
}
