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
import { signal } from '@preact/signals';
import { Component, h, type ComponentChildren } from 'preact';
import type { Strings } from './i18n.js';
import { pinned } from './pin.js';
import { unbroken } from './unbroken.js';

/** The strings Markdown needs: the code block's button and the name of a table's scroll region. */
export type MarkdownStrings = Pick<Strings, 'copyCode' | 'copied' | 'table'>;

type Renderer = typeof import('./markdown-render.js');

// Written by scripts/build-widget.mjs once the chunk's bytes are known (as for the parts chunk, lazy.tsx).
const FILE = '__PARLEY_MARKDOWN_FILE__';
const INTEGRITY = '__PARLEY_MARKDOWN_SRI__';

const renderer = signal<Renderer | undefined>(undefined);
let loading: Promise<Renderer | undefined> | undefined;

/** Fetches the Markdown chunk (once; again after a failure, when an answer next asks). Never rejects. */
export function loadMarkdown(): Promise<Renderer | undefined> {
  return (loading ??= pinned(FILE, INTEGRITY)
    .then(() => import('./markdown-render.js'))
    .then(
      (r) => (renderer.value = r),
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
 * `text` as it reads without formatting: while the renderer is on its way, paragraphs as the
 * Markdown will make them (no jump but the formatting's own); past its limits or after a failure, as
 * written (`whole`: line breaks and spaces kept).
 */
export function plain(text: string, whole = false): ComponentChildren {
  if (whole) return h('p', { class: 'plain' }, unbroken(text));
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
    if (failed) return plain(src, true);
    if (!r) {
      void loadMarkdown();
      return plain(src);
    }
    try {
      return r.render(src, strings, streaming);
    } catch (e) {
      if (!(e instanceof r.TooBig)) console.warn('[parley] a message is shown as plain text:', e);
      return plain(src, true);
    }
  }
}

/** Renders `src` (Markdown) as VNodes; while `streaming`, only what shows without flicker. */
export const markdown = (src: string, strings: MarkdownStrings, streaming = false): ComponentChildren => h(Markdown, { src, strings, streaming });
