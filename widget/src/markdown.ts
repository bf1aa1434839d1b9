/**
 * Answers' Markdown, the chat's side of it. The renderer (markdown-render.ts: the parser and its
 * VNodes) is a chunk of its own, fetched at the chat's first idle moment or when the first answer
 * needs it, so it costs the chat nothing; until it has come an answer shows as its plain text, in
 * paragraphs, which the formatted text then replaces.
 *
 * Each message renders on its own: past the renderer's limits, or if drawing it fails anywhere (its
 * parse, its elements, a component inside), that message falls back to its plain text and every
 * other message, and the transcript, goes on.
 */
import { signal, useSignal } from '@preact/signals';
import { Component, h, type ComponentChildren } from 'preact';
import type { MarkdownStrings } from './i18n.js';
import { pinned } from './pin.js';
import { styleChunk } from './styles.js';
import { unbroken } from './unbroken.js';

type Renderer = typeof import('./markdown-render.js');

// Written by scripts/build-widget.mjs once the chunk's bytes are known (as for the parts chunk, parts-loader.ts).
const FILE = '__PARLEY_MARKDOWN_FILE__';
const INTEGRITY = '__PARLEY_MARKDOWN_SRI__';

const renderer = signal<Renderer | undefined>(undefined);
let loading: Promise<Renderer | undefined> | undefined;

/** Fetches the Markdown chunk (once; again after a failure, when an answer next asks). Never rejects. */
export function loadMarkdown(): Promise<Renderer | undefined> {
  return (loading ??= pinned(FILE, INTEGRITY)
    .then(() => import('./markdown-render.js'))
    .then(
      (r) => {
        styleChunk(r.MARKDOWN_CSS);
        return (renderer.value = r);
      },
      (e: unknown) => {
        console.warn('[parley]', e);
        loading = undefined;
        return undefined;
      },
    ));
}

/** The renderer when its chunk has come (the transcript's text uses it when it can). */
export const markdownRenderer = (): Renderer | undefined => renderer.peek();

/**
 * Characters of plain text drawn at once, and again at each "Show more": a browser takes over a
 * second to lay out a megabyte of text in one paragraph, 20,000 characters take it milliseconds.
 */
export const PLAIN_STEP = 20_000;

/** The first `n` characters of `text` (one fewer rather than half a surrogate pair). */
function cut(text: string, n: number): string {
  if (text.length <= n) return text;
  const last = text.charCodeAt(n - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? n - 1 : n);
}

/**
 * `text` as written (line breaks and spaces kept), for a message past the renderer's limits or whose
 * drawing failed: a long one is cut at `PLAIN_STEP` characters, each "Show more" draws as many again.
 */
function Plain({ src, strings }: { src: string; strings: MarkdownStrings }): ComponentChildren {
  const shown = useSignal(PLAIN_STEP);
  const text = cut(src, shown.value);
  if (text.length === src.length) return h('p', { class: 'plain' }, unbroken(src));
  return [
    h('p', { class: 'plain' }, unbroken(text), '…'),
    h('button', { type: 'button', class: 'pill show-more', onClick: () => (shown.value = text.length + PLAIN_STEP) }, strings.showMore),
  ];
}

/**
 * `text` as it reads without formatting while the renderer is on its way: paragraphs as the Markdown
 * will make them (no jump but the formatting's own); a long one as written and cut, as past the limits.
 */
function plain(text: string, strings: MarkdownStrings): ComponentChildren {
  if (text.length > PLAIN_STEP) return h(Plain, { src: text, strings });
  return text
    .split(/\n[ \t]*\n/)
    .filter((p) => p.trim())
    .map((p) => h('p', null, unbroken(p.trim())));
}

interface Props {
  src: string;
  strings: MarkdownStrings;
  streaming: boolean;
}

/** One message's Markdown inside its own error boundary. */
class Markdown extends Component<Props, { failed?: boolean }> {
  override componentDidCatch(e: unknown) {
    console.warn('[parley] a message is shown as plain text:', e);
    this.setState({ failed: true });
  }

  render({ src, strings, streaming }: Props, { failed }: { failed?: boolean }): ComponentChildren {
    const r = renderer.value;
    if (failed) return h(Plain, { src, strings });
    if (!r) {
      void loadMarkdown();
      return plain(src, strings);
    }
    try {
      return r.render(src, strings, streaming);
    } catch (e) {
      if (!(e instanceof r.TooBig)) console.warn('[parley] a message is shown as plain text:', e);
      return h(Plain, { src, strings });
    }
  }
}

/** Renders `src` (Markdown) as VNodes; while `streaming`, only what shows without flicker. */
export const markdown = (src: string, strings: MarkdownStrings, streaming = false): ComponentChildren => h(Markdown, { src, strings, streaming });
