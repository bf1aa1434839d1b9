/**
 * The chat: one ES module for both ways in. npm users' `widget.mjs` `import()`s it for
 * `createParley` (a widget) and `init` (the page's widget, which also honours `<parley-chat>`); the
 * loader (widget.js) inserts it as a module script, and it hands the loader `boot`, which turns the
 * loader's script tag into `window.Parley` (embed.ts) and pins the chat's chunks (parts, Markdown) with the page's nonce.
 */
import { boot } from './embed.js';
import { loadMarkdown } from './markdown.js';
import { pinChunks } from './pin.js';

export type * from './public-types.js';
export { init } from './embed.js';
export { createParley } from './parley.js';

const hook = typeof window === 'undefined' ? undefined : (window as { __parleyChat?: (chat: { boot: typeof boot }) => void }).__parleyChat;
if (hook) {
  try {
    hook({
      boot(script) {
        pinChunks(script.nonce || '');
        boot(script);
      },
    });
  } catch (e) {
    console.warn('[parley]', e);
  }
}

// The Markdown renderer at the first idle moment a second after the chat came, so that answers read
// formatted from the first: not at once, where its evaluation would stand in the way of the click
// that usually follows the pointing that fetched the chat (an answer that needs it sooner fetches it).
if (typeof window !== 'undefined') setTimeout(() => (typeof requestIdleCallback === 'function' ? requestIdleCallback : setTimeout)(() => void loadMarkdown()), 1_000);
