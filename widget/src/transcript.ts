/**
 * The conversation as a plain-text file (docs/api.md "Engagement"): the panel's title and the date
 * on top and in the file name, the greeting, then one block per message with its time, its author's
 * name and what the visitor read: Markdown as its text, rich elements as their words (buttons and
 * quick replies by their labels, cards by title and subtitle), and the "joined the conversation"
 * line before an operator's first message, as the log shows it.
 */
import type { ComponentChildren, VNode } from 'preact';
import { firstOfOperators, joinedLine, type Who } from './authors.js';
import { badgeText } from './badges/index.js';
import { pickDir, type Strings } from './i18n.js';
import { markdownRenderer } from './markdown.js';
import type { ChatMessage } from './messages.js';
import { formatTime } from './time.js';

/** What the visitor saw besides the messages. */
export interface TranscriptHead {
  title: string;
  greeting?: string;
}

const BLOCK = new Set(['p', 'pre', 'ul', 'ol', 'li', 'blockquote', 'table', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'div']);

/** The elements among `children` (list items, table cells). */
const elements = (children: ComponentChildren) =>
  [children].flat(9).filter((child): child is VNode<{ children?: ComponentChildren }> => !!child && typeof child === 'object');

/** A list item's text, its own nested lists indented under it by `by`. */
const item = (text: string, by: string) => text.trim().replace(/\n+/g, '\n' + by);

/**
 * The text of rendered Markdown: blocks on lines of their own, list items with a dash (nested ones
 * indented), table rows with `|` between cells, links with their address, struck text between `~~`.
 */
export function textOf(node: ComponentChildren): string {
  if (node == null || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number' || typeof node === 'bigint') return String(node);
  if (Array.isArray(node)) return node.map(textOf).join('');
  const { type, props } = node as VNode<{ children?: ComponentChildren; href?: string; code?: string }>;
  if (type === 'br') return '\n';
  if (props.code !== undefined) return `\n${props.code}\n`; // a code block component
  const inner = textOf(props.children);
  if (type === 'a' && props.href && props.href !== inner && props.href !== 'mailto:' + inner) return `${inner} (${props.href})`;
  if (type === 'del' || type === 's') return `~~${inner}~~`; // "~~Express~~ standard" must not read as "Express standard"
  if (type === 'li') return `\n- ${item(inner, '  ')}`;
  if (type === 'ol') return `\n${elements(props.children).map((li, i) => `\n${i + 1}. ${item(textOf(li.props.children), '   ')}`).join('')}\n`;
  if (type === 'tr') return `${elements(props.children).map((cell) => textOf(cell.props.children).trim()).join(' | ')}\n`;
  if (typeof type === 'string' && BLOCK.has(type)) return `\n${inner.trim()}\n`;
  return inner;
}

/**
 * Markdown as the plain text a reader sees (`t` names what has no text, such as a table's region):
 * as written when the Markdown chunk could not come (saving waits for it, engage.ts) or the
 * message is past its limits, as the widget then shows it too.
 */
export function plainText(src: string, t: Strings): string {
  const r = markdownRenderer();
  let nodes: ComponentChildren = src;
  try {
    if (r) nodes = r.render(src, t);
  } catch {
    // past a limit: as written
  }
  return textOf(nodes)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** YYYY-MM-DD in the visitor's own zone. */
const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The file's name: the title and the date, without characters file systems refuse. */
export const transcriptName = (title: string, now = new Date()) => `${title.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '-').trim() || 'Chat'} ${day(now)}.txt`;

/** The transcript's text. */
export function transcriptText(messages: readonly ChatMessage[], head: TranscriptHead, t: Strings, locale: string, who: (m: ChatMessage) => Who, now = new Date()): string {
  const joined = firstOfOperators(messages, who);
  const hello: ChatMessage[] = head.greeting ? [{ id: '', role: 'bot', text: head.greeting }] : [];
  const blocks = [...hello, ...messages].map((m) => {
    const author = who(m);
    const line = joined.has(m.id) ? joinedLine(author, t) + '\n\n' : '';
    const time = m.createdAt ? `[${formatTime(m.createdAt, locale, true)}] ` : '';
    const body = [m.role === 'user' ? m.text : plainText(m.text || '', t), m.badge && badgeText(m.badge)].filter(Boolean).join('\n');
    return `${line}${time}${author.name}: ${body}\n\n`;
  });
  const text = `${head.title}\n${new Intl.DateTimeFormat(locale, { dateStyle: 'full' }).format(now)}\n\n${blocks.join('')}`;
  // A plain text file has no direction of its own: in a right-to-left language each line starts with a
  // right-to-left mark, so a text editor lays out "[time] name: text" as the widget did, not shuffled.
  return pickDir(locale) === 'rtl' ? text.replace(/^(?=.)/gm, '\u200F') : text;
}

/** Saves the transcript as a file, built in the browser. */
export function saveTranscript(text: string, name: string) {
  const a = document.createElement('a');
  a.href = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}
