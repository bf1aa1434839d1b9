/**
 * The loader's own CSS: its launcher looks exactly like the chat's (styles.ts), and the frame stands
 * where the chat's panel opens, so nothing jumps when the chat takes over. Pointing at the launcher
 * fetches the chat, whose own launcher then shows the hover (loader.ts), so this one has none. Two sheets, so a page whose
 * visitor never clicks parses only the launcher's few rules. A rule a line; the build ships no line
 * breaks (scripts/css-lines.mjs).
 *
 * The frame is the page's canvas colour in the page's declared colour scheme (`color-scheme`
 * inherited through `all:initial`), or in the one `theme.scheme` names (loader.ts): dark where the
 * chat's `auto` scheme (host-scheme.ts) reads a declared dark scheme, so a dark panel does not open
 * on a white flash. A page that is dark only by its background gets a light frame.
 */
export const LAUNCHER_CSS = `:host{--a:#4f46e5;--at:#fff;all:initial;color-scheme:inherit}
.launcher{position:fixed;z-index:2147483000;right:20px;bottom:20px;width:58px;height:58px;border:0;border-radius:50%;background:var(--a);color:var(--at);display:grid;place-items:center;box-shadow:0 6px 20px rgba(0,0,0,.22);cursor:pointer}
.launcher.left{right:auto;left:20px}
.launcher:focus-visible{outline:3px solid #111;outline-offset:3px}
.launcher svg{width:26px;height:26px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.launcher.failed{background:#9b1c1c}`;

export const FRAME_CSS = `.frame{position:fixed;z-index:2147483000;right:20px;bottom:92px;width:384px;height:min(640px,calc(100vh - 112px));background:Canvas;border-radius:16px;box-shadow:0 16px 48px rgba(0,0,0,.24);overflow:hidden;display:flex;flex-direction:column;font:15px/1.45 system-ui,sans-serif;outline:0}
.frame.left{right:auto;left:20px}
.head{min-height:48px;padding:12px 18px;box-sizing:border-box;background:var(--a);color:var(--at);font-weight:600}
.dots{margin:auto;display:flex;gap:6px}
.dots i{width:8px;height:8px;border-radius:50%;background:#bbb;animation:b 1s infinite alternate}
.dots i:nth-child(2){animation-delay:.2s}.dots i:nth-child(3){animation-delay:.4s}
@keyframes b{to{opacity:.3}}
@media(max-width:480px){.frame{inset:0;width:100%;height:100%;border-radius:0}}
@media(prefers-reduced-motion:reduce){.dots i{animation:none}}`;
