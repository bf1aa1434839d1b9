/**
 * The Markdown chunk (loaded by markdown.ts, the chat's side): answers' CommonMark and GFM (tables,
 * strikethrough, task lists, autolinks) parsed by marked's lexer and its tokens turned straight into
 * Preact VNodes. There is no HTML path at all: markup in a message is only ever text, links pass the
 * same gate as badge URLs, and an image is a link to it rather than a request to wherever a model's
 * text points (tracking pixels). docs/design-choices.md says why marked's lexer and not another parser.
 *
 * Hostile text is bounded before it costs anything: past `LIMITS` (its length, how deep it nests,
 * how big its tables are, how many elements it makes) a message is shown as its plain text.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { h, type ComponentChildren, type VNode } from 'preact';
import { safeUrl } from '../../shared/badge-url.js';
import { CodeBlock } from './ui/CodeBlock.js';
import type { MarkdownStrings } from './i18n.js';
import { settle } from './settle.js';
export { MARKDOWN_CSS } from './markdown-styles.js';
import { unbroken } from './unbroken.js';

/** What is rendered as Markdown; past any of these the message is its plain text (docs/embedding.md). */
export const LIMITS = {
  /** Characters: marked's lexer takes about 1 ms per 2 KB of answer text at 1× CPU, and its elements as long again to draw. */
  chars: 40_000,
  /** Nesting of block quotes and lists, counted in the source (a line's `>` marks and its indent) and in the tree. */
  depth: 16,
  /** Cells of all tables together. */
  cells: 4_000,
  /** Elements made. */
  nodes: 20_000,
};

/** Thrown when a message is past a limit: the caller shows its plain text. */
export class TooBig extends Error {}

const MARKS = /^[ \t]*((?:>[ \t]*|(?:[-*+]|\d{1,9}[.)])[ \t]+)*)/;

/** How deep the source nests at most, from each line's block marks and indent (before the parser sees it). */
function sourceDepth(src: string): number {
  let deepest = 0;
  for (let at = 0; at < src.length; ) {
    const end = src.indexOf('\n', at);
    const line = src.slice(at, end === -1 ? src.length : end);
    at = end === -1 ? src.length : end + 1;
    const marks = MARKS.exec(line)![0];
    // A level is a `>` or a list marker; indent counts one per two columns (a nested list's own indent).
    let depth = 0;
    let indent = 0;
    for (const c of marks) {
      if (c === '>' || c === '-' || c === '*' || c === '+' || c === '.' || c === ')') depth++;
      else if (c === ' ') indent++;
      else if (c === '\t') indent += 4;
    }
    deepest = Math.max(deepest, depth + (indent >> 1));
  }
  return deepest;
}

// Named character references an answer may use (marked leaves them in its text as written); numeric
// ones are decoded whatever their number. Any other name stays as written, as for an unknown one.
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™', hellip: '…',
  mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', bull: '•', middot: '·',
  euro: '€', pound: '£', yen: '¥', cent: '¢', sect: '§', para: '¶', deg: '°', plusmn: '±', times: '×', divide: '÷',
  frac12: '½', frac14: '¼', frac34: '¾', sup2: '²', sup3: '³', micro: 'µ', larr: '←', rarr: '→', uarr: '↑', darr: '↓',
  harr: '↔', rArr: '⇒', lArr: '⇐', hArr: '⇔', le: '≤', ge: '≥', ne: '≠', asymp: '≈', infin: '∞', minus: '−', check: '✓',
  star: '☆', hearts: '♥', dagger: '†', Dagger: '‡', permil: '‰', prime: '′', iexcl: '¡', iquest: '¿', shy: '\u00ad',
  zwj: '\u200d', zwnj: '\u200c', thinsp: '\u2009', ensp: '\u2002', emsp: '\u2003', auml: 'ä', ouml: 'ö', uuml: 'ü',
  Auml: 'Ä', Ouml: 'Ö', Uuml: 'Ü', szlig: 'ß', eacute: 'é', egrave: 'è', ecirc: 'ê', aacute: 'á', agrave: 'à',
  ccedil: 'ç', ntilde: 'ñ', oacute: 'ó', iacute: 'í', uacute: 'ú', AElig: 'Æ', aelig: 'æ', oslash: 'ø', aring: 'å',
  Dcaron: 'Ď', HilbertSpace: 'ℋ', DifferentialD: 'ⅆ', ClockwiseContourIntegral: '∲', ngE: '≧̸',
};

const ENTITY = /&(?:#[xX]([0-9a-fA-F]{1,6})|#(\d{1,7})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

/** `text` with its character references decoded (CommonMark: an invalid code point is U+FFFD). */
export const decode = (text: string) =>
  text.includes('&')
    ? text.replace(ENTITY, (m, hex?: string, dec?: string, name?: string) => {
        if (name) return NAMED[name] ?? m;
        const n = parseInt(hex ?? dec!, hex ? 16 : 10);
        return String.fromCodePoint(n === 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff) ? 0xfffd : n);
      })
    : text;

/** One message's rendering: its strings, the heading shift and the budget left. */
interface Run {
  strings: MarkdownStrings;
  shift: number;
  nodes: number;
  cells: number;
}

/**
 * An element, counted against the budget. Unkeyed: while an answer streams, its blocks keep their
 * places, so a code block keeps its state (the button's "Copied").
 */
function el(run: Run, type: string | typeof CodeBlock, props: Record<string, unknown> | null, ...children: ComponentChildren[]): VNode {
  if (++run.nodes > LIMITS.nodes) throw new TooBig('elements');
  return h(type as string, props, ...children);
}

/** A link that opens in a new tab, or its words alone when the URL does not pass the gate. */
function link(run: Run, href: string, label: ComponentChildren): ComponentChildren {
  const url = safeUrl(href);
  return url ? el(run, 'a', { href: url, target: '_blank', rel: 'noopener noreferrer' }, label) : label;
}

function inline(run: Run, tokens: Token[] | undefined, depth: number): ComponentChildren[] {
  if (!tokens) return [];
  if (depth > LIMITS.depth * 2) throw new TooBig('depth');
  return tokens.map((t) => inlineToken(run, t, depth + 1));
}

function inlineToken(run: Run, t: Token, depth: number): ComponentChildren {
  switch (t.type) {
    case 'text':
      return 'tokens' in t && t.tokens ? inline(run, t.tokens, depth) : unbroken(decode(t.text));
    case 'escape':
      return t.text;
    case 'html':
      return t.text; // markup is text
    case 'strong':
      return el(run, 'strong', null, inline(run, t.tokens, depth));
    case 'em':
      return el(run, 'em', null, inline(run, t.tokens, depth));
    case 'del':
      return el(run, 'del', null, inline(run, t.tokens, depth));
    case 'codespan':
      return el(run, 'code', null, unbroken(t.text));
    case 'br':
      return el(run, 'br', null);
    case 'link':
      return link(run, t.href, inline(run, t.tokens, depth));
    case 'image':
      // A link to the image, labelled with its alt text (or its address): nothing is loaded.
      return link(run, t.href, decode(t.text) || t.href);
    default:
      return 'text' in t ? decode(String(t.text)) : '';
  }
}

function blocks(run: Run, tokens: Token[], depth: number, tight = false): ComponentChildren[] {
  if (depth > LIMITS.depth) throw new TooBig('depth');
  return tokens.map((t) => block(run, t, depth + 1, tight));
}

function block(run: Run, t: Token, depth: number, tight: boolean): ComponentChildren {
  switch (t.type) {
    case 'space':
    case 'def':
      return null;
    case 'paragraph':
      return tight ? inline(run, t.tokens, depth) : el(run, 'p', null, inline(run, t.tokens, depth));
    case 'text':
      // A tight list item's text, without a paragraph around it.
      return tight ? inline(run, t.tokens ?? [{ type: 'text', raw: t.raw, text: t.text }], depth) : el(run, 'p', null, inline(run, t.tokens, depth));
    case 'heading':
      // Under the panel's own h2: an answer's topmost heading is an h3 whatever its level, so none is skipped.
      return el(run, `h${Math.max(3, Math.min(t.depth + run.shift, 6))}`, null, inline(run, t.tokens, depth));
    case 'code':
      return el(run, CodeBlock, { code: t.codeBlockStyle === 'indented' ? t.text : t.text.replace(/\n$/, ''), strings: run.strings });
    case 'hr':
      return el(run, 'hr', null);
    case 'blockquote':
      return el(run, 'blockquote', null, blocks(run, t.tokens ?? [], depth));
    case 'list':
      return list(run, t as Tokens.List, depth);
    case 'table':
      return table(run, t as Tokens.Table, depth);
    case 'html':
      // A block of markup is its text, as a paragraph.
      return el(run, 'p', null, t.text.replace(/\n$/, ''));
    default:
      return 'tokens' in t && t.tokens ? inline(run, t.tokens, depth) : null;
  }
}

function list(run: Run, t: Tokens.List, depth: number): VNode {
  const items = t.items.map((item) => {
    const body = blocks(run, item.tokens.filter((x) => x.type !== 'checkbox'), depth, !t.loose);
    // A task is a glyph rather than a checkbox nobody can tick (which would need a label of its own).
    const task = item.task && el(run, 'span', { class: 'task' }, item.checked ? '☑' : '☐');
    return el(run, 'li', null, task, task && ' ', body);
  });
  const start = t.ordered && t.start !== '' && t.start !== 1 ? Number(t.start) : undefined;
  return el(run, t.ordered ? 'ol' : 'ul', start === undefined ? null : { start }, items);
}

function table(run: Run, t: Tokens.Table, depth: number): VNode {
  run.cells += t.header.length * (t.rows.length + 1);
  if (run.cells > LIMITS.cells) throw new TooBig('cells');
  const cell = (tag: string, c: Tokens.TableCell) => el(run, tag, c.align ? { style: { textAlign: c.align } } : null, inline(run, c.tokens, depth));
  const head = el(run, 'thead', null, el(run, 'tr', null, t.header.map((c) => cell('th', c))));
  const body = t.rows.length ? el(run, 'tbody', null, t.rows.map((row) => el(run, 'tr', null, row.map((c) => cell('td', c))))) : null;
  // Wider than a phone's bubble: it scrolls sideways in a group a keyboard can reach (a group, not
  // a region: a landmark per table would give a conversation several of one name).
  return el(run, 'div', { class: 'table', role: 'group', tabIndex: 0, 'aria-label': run.strings.table }, el(run, 'table', null, head, body));
}

/** The level of the topmost heading among `tokens` (1 when there is none, so nothing shifts past h3). */
function topHeading(tokens: Token[]): number {
  let top = 6;
  let any = false;
  const walk = (list: Token[], depth: number) => {
    if (depth > LIMITS.depth) return;
    for (const t of list) {
      if (t.type === 'heading') (top = Math.min(top, t.depth)), (any = true);
      else if (t.type === 'blockquote') walk(t.tokens ?? [], depth + 1);
      else if (t.type === 'list') for (const item of (t as Tokens.List).items) walk(item.tokens ?? [], depth + 1);
    }
  };
  walk(tokens, 0);
  return any ? top : 1;
}

/**
 * `src` (Markdown) as VNodes; while `streaming`, only what can be shown without flicker (settle.ts).
 * Throws `TooBig` past a limit.
 */
export function render(src: string, strings: MarkdownStrings, streaming = false): ComponentChildren {
  const text = streaming ? settle(src) : src;
  if (text.length > LIMITS.chars) throw new TooBig('chars');
  if (sourceDepth(text) > LIMITS.depth) throw new TooBig('depth');
  const tokens = Lexer.lex(text, { gfm: true });
  const run: Run = { strings, shift: 0, nodes: 0, cells: 0 };
  run.shift = 3 - topHeading(tokens);
  return blocks(run, tokens, 0);
}
