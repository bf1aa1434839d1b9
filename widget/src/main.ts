/**
 * Entry point. For npm users: `createParley` (a widget) and `init` (the page's widget, which also
 * honours `<parley-chat>`). Loaded by a script tag, it also installs `window.Parley` (see embed.ts).
 */
import { boot, init } from './embed.js';
import { createParley } from './parley.js';

export type * from './public-types.js';
export { createParley, init };

// Loaded by the loader (widget.js): hand it `boot`, and it passes its own script tag. Loaded by a
// script tag of its own (the chat file on its own, as before the loader), boot from that tag.
const hook = typeof window === 'undefined' ? undefined : (window as { __parleyChat?: (chat: { boot: typeof boot }) => void }).__parleyChat;
const me = typeof document === 'undefined' ? null : document.currentScript;
try {
  if (hook) hook({ boot });
  else if (me instanceof HTMLScriptElement && me.src) boot(me);
} catch (e) {
  console.warn('[parley]', e);
}
