/**
 * A safe Markdown subset rendered straight to VNodes: paragraphs with line breaks, bullet and
 * numbered lists, fenced code, **bold**, *italic*, `code` and links. There is no HTML path at
 * all, so markup in a message is only ever text; links pass the same gate as badge URLs.
 */
import { h, type ComponentChildren } from 'preact';
import { safeUrl } from '../../shared/badge-url.js';

// 1 code · 2/3 bold · 4 *italic* · 5 char before _ · 6 _italic_ · 7/8 [text](url) · 9 bare URL.
// No lookbehind: Safari before 16.4 cannot parse it, and a syntax error would kill the widget.
const INLINE =
  /`([^`\n]+)`|\*\*(.+?)\*\*|__(.+?)__|\*([^*\s](?:[^*]*?[^*\s])?)\*|(^|[^\w])_([^_\s](?:[^_]*?[^_\s])?)_(?!\w)|\[([^\]\n]+)\]\(\s*((?:[^()\s]|\([^()\s]*\))+)\s*\)|(https?:\/\/[^\s<>()]*[^\s<>().,;:!?'"])/g;

const link = (href: string, children: ComponentChildren) => h('a', { href, target: '_blank', rel: 'noopener noreferrer' }, children);

function inline(text: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    const start = m.index! + (m[5]?.length || 0);
    if (start > last) out.push(text.slice(last, start));
    const emph = m[4] ?? m[6];
    if (m[1] !== undefined) out.push(h('code', null, m[1]));
    else if (m[2] ?? m[3]) out.push(h('strong', null, inline((m[2] ?? m[3])!)));
    else if (emph) out.push(h('em', null, inline(emph)));
    else if (m[7] !== undefined) {
      const href = safeUrl(m[8]);
      out.push(href ? link(href, inline(m[7])) : m[7]);
    } else if (m[9]) out.push(safeUrl(m[9]) ? link(m[9], m[9]) : m[9]);
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Renders `src` (Markdown subset) as VNodes. */
export function markdown(src: string): ComponentChildren[] {
  const lines = src.replace(/\r\n?/g, '\n').split('\n');
  const out: ComponentChildren[] = [];
  let para: string[] = [];
  let list: { ordered: boolean; items: string[] } | undefined;
  const flush = () => {
    if (para.length) out.push(h('p', null, para.flatMap((l, i) => (i ? [h('br', null), ...inline(l)] : inline(l)))));
    if (list) out.push(h(list.ordered ? 'ol' : 'ul', null, list.items.map((it) => h('li', null, inline(it)))));
    para = [];
    list = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*```/.test(line)) {
      flush();
      const code: string[] = [];
      while (++i < lines.length && !/^\s*```/.test(lines[i]!)) code.push(lines[i]!);
      out.push(h('pre', null, h('code', null, code.join('\n'))));
      continue;
    }
    const item = /^\s*(?:[-*+]|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      const ordered = item[1] !== undefined;
      if (!list || list.ordered !== ordered) {
        flush();
        list = { ordered, items: [] };
      }
      list.items.push(item[2]!);
    } else if (!line.trim()) flush();
    else {
      if (list) flush();
      para.push(line);
    }
  }
  flush();
  return out;
}
