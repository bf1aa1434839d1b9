/** The chat as a module of its own, for `widget.mjs` to `import()` (esm.ts). */
export { init } from './embed.js';
export { createParley } from './parley.js';
