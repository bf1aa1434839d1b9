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
export const LAUNCHER_CSS = `:host{--a:#4f46e5;--at:#fff;--ox:20px;--oy:20px;all:initial;color-scheme:inherit}
.launcher,.frame{position:fixed;z-index:var(--parley-z-index,2147483000);right:var(--ox);bottom:var(--oy)}
.left{right:auto;left:var(--ox)}
.launcher{width:58px;height:58px;border:0;border-radius:50%;background:var(--a);color:var(--at);display:grid;place-items:center;box-shadow:0 6px 20px #00000038;cursor:pointer}
.launcher:focus-visible{outline:3px solid #111;outline-offset:3px}
.launcher svg{width:26px;height:26px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round}
.failed{background:#9b1c1c}`;

export const FRAME_CSS = `.frame{bottom:calc(var(--oy) + 72px);width:384px;height:min(640px,calc(100vh - var(--oy) - 92px));background:Canvas;color:CanvasText;border-radius:16px;box-shadow:0 16px 48px #0004;overflow:hidden;display:flex;flex-direction:column;font:15px system-ui}
.head{min-height:48px;padding:12px 18px;box-sizing:border-box;background:var(--a);color:var(--at);font-weight:600}
textarea{margin:auto 12px 12px;padding:10px 12px;border:1px solid #8888;border-radius:12px;font:inherit;color:inherit;background:none;resize:none}
@media(max-width:480px){.frame{inset:0;width:auto;height:auto;border-radius:0}}`;
