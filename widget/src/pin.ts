/**
 * The chat's chunks (the parts, parts-loader.ts; the Markdown renderer, markdown.ts) pinned as the loader
 * pins the chat: a `<link rel=modulepreload>` with the chunk's integrity (and the page's nonce)
 * fetches it, and the `import()` that follows takes that checked module from the browser's module
 * map. A failed fetch is not remembered by the browser, so a later try fetches it again.
 */
let pin: { nonce: string } | undefined;

/** From now on the chunks are fetched with their integrity checked (the loader's chat does this). */
export const pinChunks = (nonce: string) => void (pin = { nonce });

/**
 * Fetches the chunk `file` (beside the chat) with its `integrity` checked when the loader's chat
 * pinned its chunks (the parts here, the Markdown chunk in markdown.ts); the `import()` after it
 * takes the checked module.
 */
export function pinned(file: string, integrity: string): Promise<void> {
  if (!pin) return Promise.resolve();
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = new URL(file, import.meta.url).href;
  link.integrity = integrity;
  link.crossOrigin = 'anonymous';
  link.nonce = pin.nonce;
  return new Promise<void>((resolve, reject) => {
    link.onload = () => resolve();
    link.onerror = () => reject(new Error('parley: a part of the chat could not load'));
    document.head.append(link);
  }).finally(() => link.remove());
}
