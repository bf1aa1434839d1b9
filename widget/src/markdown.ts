/**
 * Answers' Markdown (CommonMark and GFM: headings, lists, block quotes, tables, task lists, code)
 * parsed by markdown-to-jsx straight into Preact VNodes. There is no HTML path at all, so markup in
 * a message is only ever text; links and images pass the same gate as badge URLs, and an image is a
 * link to it rather than a request to wherever a model's text points (tracking pixels).
 */
import { compiler, RuleType, type MarkdownToJSX } from 'markdown-to-jsx';
import { h, type ComponentChildren, type VNode } from 'preact';
import { safeUrl } from '../../shared/badge-url.js';
import { CodeBlock } from './components/CodeBlock.js';
import type { Strings } from './i18n.js';

/** The strings Markdown needs: the code block's button and the name of a table's scroll region. */
export type MarkdownStrings = Pick<Strings, 'copyCode' | 'copied' | 'table'>;

type Rendered = VNode<{ href?: string | null; src?: string | null; alt?: string; children?: ComponentChildren }>;

/**
 * A link or image as the library built it (its `href`/`src` already through `safeUrl`, the
 * sanitizer below) becomes a link that opens in a new tab, or its words alone when the URL failed.
 */
function gated(node: unknown): ComponentChildren {
  const v = node as Rendered | null;
  if (!v || (v.type !== 'a' && v.type !== 'img')) return v; // a reference without its definition: its text
  const url = v.props.href ?? v.props.src;
  const label = v.type === 'img' ? v.props.alt || url : v.props.children;
  return url ? h('a', { key: v.key, href: url, target: '_blank', rel: 'noopener noreferrer' }, label) : label;
}

/** A fenced code block (to its closing fence, or the end of an answer still streaming). */
const FENCED_CODE = /(`{3,}|~{3,})[\s\S]*?(?:\1|$)/g;
// Code (fenced first, so its group stays \1), URLs, and an underscore between two letters or digits (with the one before it).
const CODE_URL_OR_INWORD_UNDERSCORE = new RegExp(`${FENCED_CODE.source}|(\`+)[\\s\\S]*?\\2|<[^>\\s]*>|https?:\\/\\/\\S+|([^\\W_])_(?=[^\\W_])`, 'g');

/**
 * `snake_case_name` stays as written: CommonMark never reads an underscore inside a word as
 * emphasis, markdown-to-jsx 7 does, so such underscores are escaped (not in code or URLs).
 */
const keepInWordUnderscores = (src: string) => src.replace(CODE_URL_OR_INWORD_UNDERSCORE, (m, _f, _b, letter?: string) => (letter ? `${letter}\\_` : m));

const ATX_HEADING = /^ {0,3}(#{1,6})(?=[ \t]|$)/gm;

/** The level of the answer's topmost `#` heading outside code (1 when it has none). */
function topHeading(src: string): number {
  let top = 6;
  for (const m of src.replace(FENCED_CODE, '').matchAll(ATX_HEADING)) top = Math.min(top, m[1]!.length);
  return top;
}

/** Renders `src` (Markdown) as VNodes. */
export function markdown(src: string, strings: MarkdownStrings): ComponentChildren {
  // Headings sit under the panel's own h2: an answer's topmost one is an h3, whichever level it was
  // written at, so no level is skipped (an answer that starts at "##" would otherwise jump to h4).
  const shift = 3 - (src.includes('#') ? topHeading(src) : 1);
  return compiler(keepInWordUnderscores(src), {
    createElement: h as unknown as MarkdownToJSX.Options['createElement'],
    disableParsingRawHTML: true,
    forceBlock: true,
    wrapper: null,
    sanitizer: (url) => safeUrl(url) ?? null,
    renderRule(next, node, children, state) {
      switch (node.type) {
        case RuleType.link:
        case RuleType.refLink:
        case RuleType.image:
        case RuleType.refImage:
        case RuleType.footnoteReference:
          return gated(next());
        case RuleType.codeBlock:
          return h(CodeBlock, { key: state.key, code: node.text.replace(/\n$/, ''), strings });
        case RuleType.table:
          // Wider than a phone's bubble: it scrolls sideways in a group a keyboard can reach (a group, not
          // a region: a landmark per table would give a conversation several of one name).
          return h('div', { key: state.key, class: 'table', role: 'group', tabIndex: 0, 'aria-label': strings.table }, next());
        case RuleType.heading:
          // Without the library's ids (two answers with one heading would clash).
          return h(`h${Math.max(3, Math.min(node.level + shift, 6))}`, { key: state.key }, children(node.children, state));
        case RuleType.orderedList:
        case RuleType.unorderedList: {
          const outer = state.list;
          state.list = true; // the render state does not say it; tasks below ask
          const list = next();
          state.list = outer;
          return list;
        }
        case RuleType.gfmTask:
          // The library reads `[x]` as a task anywhere; outside a list it stays text. In a list, a
          // glyph rather than a checkbox nobody can tick, which would need a label of its own.
          if (!state.list) return node.completed ? '[x]' : '[ ]';
          return h('span', { key: state.key, class: 'task' }, node.completed ? '☑' : '☐');
        default:
          return next();
      }
    },
  }) as ComponentChildren;
}
