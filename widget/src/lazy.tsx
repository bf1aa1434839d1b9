/**
 * The parts chunk (parts.ts): fetched the first time one of its parts is about to show, so that a
 * visitor who never sees a pre-chat form, a rating, a lightbox or a transcript never pays for them.
 * Loaded by the loader, the chat pins the chunk by its integrity as the loader pins the chat (pin.ts).
 */
import { signal } from '@preact/signals';
import type { FunctionComponent } from 'preact';
import type { Ctx } from './components/ctx.js';
import { pinned } from './pin.js';
import { styleParts } from './styles.js';

type Parts = typeof import('./parts.js');
type PartName = { [K in keyof Parts]: Parts[K] extends FunctionComponent<any> ? K : never }[keyof Parts];

// Written by scripts/build-widget.mjs once the chunk's bytes are known (they name this file, so its
// hash is known only after the build).
const FILE = '__PARLEY_PARTS_FILE__';
const INTEGRITY = '__PARLEY_PARTS_SRI__';

let loading: Promise<Parts> | undefined;
const parts = signal<Parts | undefined>(undefined);
const failed = signal(false);

/** The parts chunk, once it is in (what it holds is only ever read after `loadParts()`). */
export function loadedParts(): Parts {
  if (!parts.value) throw new Error('parley: the parts chunk is not loaded');
  return parts.value;
}

/** Fetches the parts chunk (once; again after a failure). */
export function loadParts(): Promise<Parts> {
  failed.value = false;
  return (loading ??= pinned(FILE, INTEGRITY)
    .then(() => import('./parts.js'))
    .then(
      (p) => {
        styleParts(p.PARTS_CSS);
        return (parts.value = p);
      },
      (e: unknown) => {
        loading = undefined;
        failed.value = true;
        throw e;
      },
    ));
}

/** Fetches it ahead of need (pointing at an image, the file picker) or for a part being drawn; a failure is only reported. */
export const fetchParts = (): void => void loadParts().catch((e: unknown) => console.warn('[parley]', e));


/** A component of the parts chunk: fetched when first drawn, drawn once it has come; if it cannot come, a button tries again. */
export function Part<K extends PartName>({ name, props, ctx }: { name: K; props: Parameters<Parts[K]>[0]; ctx: Ctx }) {
  const C = parts.value?.[name] as FunctionComponent<object> | undefined;
  if (C) return <C {...(props as object)} />;
  if (!failed.value) {
    fetchParts();
    return null;
  }
  return (
    <button type="button" class="pill" onClick={fetchParts}>
      {ctx.strings.partFailed}
    </button>
  );
}
