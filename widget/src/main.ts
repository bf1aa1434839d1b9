/**
 * Entry point. For npm users: `createParley` (a widget) and `init` (the page's widget, which also
 * honours `<parley-chat>`). Loaded by a script tag, it also installs `window.Parley` (see embed.ts).
 */
import { boot, init } from './embed.js';
import { createParley } from './parley.js';

export type * from './public-types.js';
export { createParley, init };

const me = typeof document === 'undefined' ? null : document.currentScript;
if (me instanceof HTMLScriptElement && me.src) {
  try {
    boot(me);
  } catch (e) {
    console.warn('[parley]', e);
  }
}
