/**
 * Fetching the parts chunk (parts.ts) the first time one of its parts is needed, so that a visitor
 * who never sees a pre-chat form, a rating, a lightbox or a transcript, and never sends a file,
 * never pays for them; its components are drawn by `Part` (ui/Part.tsx). Loaded by the loader, the
 * chat pins the chunk by its integrity as the loader pins the chat (pin.ts).
 *
 * This file names no part: parts.ts adds its exports to `Parts`, and parley.ts says where the
 * chunk comes from (`partsFrom`), so the slices and components below can fetch it without importing
 * what imports them.
 */
import { signal, type ReadonlySignal } from '@preact/signals';
import { pinned } from './pin.js';
import { styleChunk } from './styles.js';

/** The parts chunk's exports (parts.ts adds them: declaration merging). */
// eslint-disable-next-line @typescript-eslint/no-empty-interface, @typescript-eslint/no-empty-object-type
export interface Parts {}

let source: (() => Promise<Parts>) | undefined;
/** Where the parts chunk comes from: `import('./parts.js')`, said once by parley.ts. */
export const partsFrom = (load: () => Promise<Parts>): void => void (source = load);

// Written by scripts/build-widget.mjs once the chunk's bytes are known (they name this file, so its
// hash is known only after the build).
const FILE = '__PARLEY_PARTS_FILE__';
const INTEGRITY = '__PARLEY_PARTS_SRI__';

let loading: Promise<Parts> | undefined;
const chunk = signal<Parts | undefined>(undefined);
const refused = signal(false);
/** The parts chunk once it has come. */
export const parts: ReadonlySignal<Parts | undefined> = chunk;
/** The last fetch of the chunk failed (a later one may work). */
export const failed: ReadonlySignal<boolean> = refused;

/** The parts chunk, once it is in (what it holds is only ever read after `loadParts()`). */
export function loadedParts(): Parts {
  if (!chunk.value) throw new Error('parley: the parts chunk is not loaded');
  return chunk.value;
}

/** Fetches the parts chunk (once; again after a failure). */
export function loadParts(): Promise<Parts> {
  refused.value = false;
  return (loading ??= pinned(FILE, INTEGRITY)
    .then(() => {
      if (!source) throw new Error('parley: where the parts chunk comes from was not said (partsFrom)');
      return source();
    })
    .then(
      (p) => {
        styleChunk(p.PARTS_CSS);
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
