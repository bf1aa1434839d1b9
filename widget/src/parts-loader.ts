/**
 * Fetching the parts chunk (parts.ts); its components are drawn by `Part` (lazy.tsx): fetched the first time one of its parts is about to show, so that a
 * visitor who never sees a pre-chat form, a rating, a lightbox or a transcript never pays for them.
 * Loaded by the loader, the chat pins the chunk as the loader pins the chat: a
 * `<link rel=modulepreload>` with the chunk's integrity (and the page's nonce) fetches it, and the
 * `import()` that follows takes that checked module from the browser's module map. A failed fetch is
 * not remembered by the browser, so a later try fetches it again.
 */
import { signal, type ReadonlySignal } from '@preact/signals';
import { styleParts } from './styles.js';

/** The parts chunk's exports. */
export type Parts = typeof import('./parts.js');

// Written by scripts/build-widget.mjs once the chunk's bytes are known (they name this file, so its
// hash is known only after the build).
const FILE = '__PARLEY_PARTS_FILE__';
const INTEGRITY = '__PARLEY_PARTS_SRI__';

let pin: { nonce: string } | undefined;
let loading: Promise<Parts> | undefined;
const chunk = signal<Parts | undefined>(undefined);
const refused = signal(false);
/** The parts chunk once it has come. */
export const parts: ReadonlySignal<Parts | undefined> = chunk;
/** The last fetch of the chunk failed (a later one may work). */
export const failed: ReadonlySignal<boolean> = refused;

/** From now on the chunk is fetched with its integrity checked (the loader's chat does this). */
export const pinParts = (nonce: string) => void (pin = { nonce });

/** Fetches the parts chunk (once; again after a failure). */
export function loadParts(): Promise<Parts> {
  refused.value = false;
  return (loading ??= preload()
    .then(() => import('./parts.js'))
    .then(
      (p) => {
        styleParts(p.PARTS_CSS);
        return (chunk.value = p);
      },
      (e: unknown) => {
        loading = undefined;
        refused.value = true;
        throw e;
      },
    ));
}

/** Fetches it ahead of need (pointing at an image, the file picker) or for a part being drawn; a failure is only reported. */
export const fetchParts = (): void => void loadParts().catch((e: unknown) => console.warn('[parley]', e));

function preload(): Promise<void> {
  if (!pin) return Promise.resolve();
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = new URL(FILE, import.meta.url).href;
  link.integrity = INTEGRITY;
  link.crossOrigin = 'anonymous';
  link.nonce = pin.nonce;
  return new Promise<void>((resolve, reject) => {
    link.onload = () => resolve();
    link.onerror = () => reject(new Error('parley: a part of the chat could not load'));
    document.head.append(link);
  }).finally(() => link.remove());
}
