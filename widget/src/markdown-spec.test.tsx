/**
 * Answers read as CommonMark says: every example of the CommonMark 0.31.2 spec (the
 * `commonmark-spec` package) and the GFM spec's table, task-list, strikethrough and autolink examples
 * rendered by the widget's renderer, and the DOM compared with the spec's HTML, both normalised.
 *
 * Left out, where the widget differs on purpose: raw HTML (shown as text, never as markup), images
 * (a link to the image, nothing loaded) and links the URL gate refuses (relative ones, with no page
 * of the answer's own to be relative to; `javascript:` and the like). The normalising says what the
 * widget adds around the spec's elements: headings start at h3 under the panel's title, a table sits
 * in a scrolling group, a code block in a box with its Copy button, a task is a glyph rather than a
 * checkbox nobody can tick, links open in a new tab.
 */
import { render } from 'preact';
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { safeUrl } from '../../shared/badge-url.js';
import { pickStrings } from './i18n.js';
import { loadMarkdown, markdown } from './markdown.js';

interface Example {
  markdown: string;
  html: string;
  section: string;
  number: number;
}

// The package writes tabs as the spec shows them, `→`.
const commonmark = (createRequire(join(process.cwd(), 'package.json'))('commonmark-spec') as { tests: Example[] }).tests.map((e) => ({
  ...e,
  markdown: e.markdown.replaceAll('→', '\t'),
  html: e.html.replaceAll('→', '\t'),
}));
const gfm = (JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/gfm-spec-extensions.json'), 'utf8')) as { examples: Example[] }).examples;
const t = pickStrings();

/** Why an example is not one a chat answer can meet as the spec renders it, if it is not. */
function leftOut(e: Example): string | undefined {
  if (e.section === 'Raw HTML' || e.section === 'HTML blocks') return 'raw HTML';
  if (/<img\b/.test(e.html)) return 'image';
  const hrefs = [...e.html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
  if (hrefs.some((h) => !safeUrl(h))) return 'a link the gate refuses';
  // Markup the spec passes through inline (its HTML then holds tags the Markdown wrote as such).
  if (/<\/?[a-z][\w-]*(?:\s[^>]*)?>|<!--/i.test(e.markdown.replace(/`[^`]*`/g, '')) && !/&lt;/.test(e.html) && e.section !== 'Autolinks' && e.section !== 'Code spans') return 'raw HTML';
  return undefined;
}

/** An address as the browser reads it (the spec percent-encodes what the widget leaves to the browser). */
function address(href: string): string {
  try {
    return new URL(href).href;
  } catch {
    return href;
  }
}

/** A DOM in a comparable form: elements with sorted attributes, text with its runs of white space as one. */
function normal(root: Node): string {
  const out: string[] = [];
  const walk = (n: Node) => {
    if (n.nodeType === 3) {
      out.push((n.textContent ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (n.nodeType !== 1) return;
    const e = n as Element;
    const tag = e.tagName.toLowerCase();
    const attrs = [...e.attributes]
      .map((a) => [a.name, a.value] as const)
      .filter(([name]) => name !== 'target' && name !== 'rel' && name !== 'class' && !name.startsWith('__')) // __self, __source: JSX in development
      .sort()
      .map(([k, v]) => ` ${k}="${k === 'href' ? address(v) : v}"`)
      .join('');
    out.push(`<${/^h[1-6]$/.test(tag) ? 'h' : tag}${attrs}>`);
    e.childNodes.forEach(walk);
    out.push(`</${/^h[1-6]$/.test(tag) ? 'h' : tag}>`);
  };
  root.childNodes.forEach(walk);
  // White space next to a block's edges is not text a reader sees.
  return out
    .join('')
    .replace(/(<br><\/br>)\s+/g, '$1') // the line break after a hard break
    .replace(/\s+(<\/code><\/pre>)/g, '$1') // a code block's last line break (the Copy button copies without it)
    .replace(/\s*(<\/?(?:p|ul|ol|li|blockquote|pre|h|table|thead|tbody|tr|th|td|hr|div)(?: [^>]*)?>)\s*/g, '$1')
    .trim();
}

/** The spec's HTML as the widget would draw the same elements. */
function expected(html: string): string {
  const box = document.createElement('div');
  box.innerHTML = html;
  box.querySelectorAll('input[type=checkbox]').forEach((i) => {
    const s = document.createElement('span');
    s.textContent = i.hasAttribute('checked') ? '☑' : '☐';
    i.replaceWith(s);
  });
  box.querySelectorAll('[align]').forEach((c) => {
    c.setAttribute('style', `text-align: ${c.getAttribute('align')};`);
    c.removeAttribute('align');
  });
  return normal(box);
}

/** What the widget draws, with its code boxes and table groups unwrapped to the spec's elements. */
function drawn(md: string): string {
  const box = document.createElement('div');
  render(<>{markdown(md, t)}</>, box);
  box.querySelectorAll('button.copy').forEach((b) => b.remove());
  box.querySelectorAll('div.code, div.table').forEach((d) => d.replaceWith(...d.childNodes));
  const html = normal(box);
  render(null, box);
  return html;
}

beforeAll(async () => {
  await loadMarkdown();
});

describe('the CommonMark and GFM spec examples a chat answer can meet', () => {
  const run = (examples: Example[]) => {
    const relevant = examples.filter((e) => !leftOut(e));
    const failed = relevant.filter((e) => drawn(e.markdown) !== expected(e.html));
    return { relevant, failed };
  };

  it('CommonMark 0.31.2: at least 95% render as the spec does', () => {
    const { relevant, failed } = run(commonmark);
    const rate = 1 - failed.length / relevant.length;
    if (process.env.SPEC_DIFF) for (const e of failed) console.info(e.number, JSON.stringify(e.markdown), '\n  ', drawn(e.markdown), '\n  ', expected(e.html));
    console.info(`CommonMark 0.31.2: ${relevant.length - failed.length}/${relevant.length} (${(rate * 100).toFixed(1)}%) of ${commonmark.length}; differ: ${failed.map((e) => e.number).join(' ')}`);
    expect(relevant.length).toBeGreaterThan(450);
    expect(rate).toBeGreaterThanOrEqual(0.95);
  }, 60_000); // 652 examples drawn into a DOM: seconds on a busy machine

  it('GFM tables, task lists, strikethrough and autolinks: at least 95% render as the spec does', () => {
    const { relevant, failed } = run(gfm);
    const rate = 1 - failed.length / relevant.length;
    console.info(`GFM extensions: ${relevant.length - failed.length}/${relevant.length}; differ: ${failed.map((e) => e.number).join(' ')}`);
    expect(relevant.length).toBeGreaterThan(15);
    expect(rate).toBeGreaterThanOrEqual(0.95);
  });

  it('the comparison sees a difference: an answer drawn wrong does not pass', () => {
    expect(drawn('*a* b')).not.toBe(expected('<p><strong>a</strong> b</p>'));
    expect(drawn('- a\n- b')).toBe(expected('<ul>\n<li>a</li>\n<li>b</li>\n</ul>'));
    expect(drawn('# T\n\n```js\nx\n```')).toBe(expected('<h1>T</h1>\n<pre><code class="language-js">x\n</code></pre>'));
  });
});
