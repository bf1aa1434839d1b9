/**
 * The widget's CSS, adopted as a constructable stylesheet: no `<style>` element and no inline
 * style strings, so a page whose CSP forbids `unsafe-inline` styles shows it unchanged. Browsers
 * without constructable stylesheets (Safari before 16.4) link the same CSS from the BFF
 * (`widget.css`, written by the build), which such a CSP allows too.
 * Colors come from custom properties: `--parley-accent`, `--parley-accent-text`, `--parley-bg`,
 * `--parley-fg`, `--parley-muted`, `--parley-border`, `--parley-bubble`, `--parley-radius`,
 * `--parley-font`. `--parley-z-index` (or `theme.zIndex`) stacks the launcher, bubble and panel; `--ox`
 * and `--oy` (from `theme.offset`) place them from the corner.
 * The header is one line: the title, then icon buttons (conversations, the "More" menu, close); only a
 * title wider than the rest is cut. "Talk to a person" sits below it (German's "Mit einem Menschen
 * sprechen" is long), secondary actions in the menu.
 */

const DARK = '--bg:#17191e;--fg:#eceef2;--mu:#a5abb6;--bd:#30343d;--bb:#252830;--ac:color-mix(in srgb,var(--a) 55%,#fff);--eb:#3b1e20;--ef:#ffc2c2';

/** The widget's CSS but the badge kinds' own (badges/: each kind's file has its rules); `widget.css` has all of it. */
export const CSS = `
:host{all:initial;display:block}
:host(parley-chat){height:560px}
*{box-sizing:border-box}
.root{--a:var(--parley-accent,var(--pa,#2454d6));--at:var(--parley-accent-text,var(--pat,#fff));--ac:var(--a);--bg:var(--parley-bg,#fff);--fg:var(--parley-fg,#1b1e24);--mu:var(--parley-muted,#5a616d);--bd:var(--parley-border,#e1e4e9);--bb:var(--parley-bubble,#eff1f4);--eb:#fdecec;--ef:#8a1c1c;--rad:var(--parley-radius,16px);font:15px/1.45 var(--parley-font,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif);color:var(--fg);-webkit-font-smoothing:antialiased}
.dark{${DARK}}
button{font:inherit;color:inherit;cursor:pointer;margin:0}
:focus-visible{outline:2px solid var(--ac);outline-offset:2px}
.header :focus-visible{outline-color:var(--at)}
.launcher:focus-visible{outline-color:var(--fg)}
svg{width:20px;height:20px;fill:none;stroke:currentColor;stroke-width:2;stroke-linecap:round;stroke-linejoin:round;flex:none}
[dir=rtl] .send svg{transform:scaleX(-1)}
.launcher,.panel,.proactive{position:fixed;z-index:var(--parley-z-index,2147483000);right:var(--ox,20px)}
.left .launcher,.left .panel,.left .proactive{right:auto;left:var(--ox,20px)}
.launcher{bottom:var(--oy,20px);width:58px;height:58px;border:0;border-radius:50%;background:var(--a);color:var(--at);display:grid;place-items:center;box-shadow:0 6px 20px rgba(0,0,0,.22);transition:transform .15s}
.launcher:hover{transform:scale(1.06)}
.launcher svg{width:26px;height:26px}
.unread{position:absolute;top:-3px;right:-3px;min-width:22px;height:22px;padding:0 6px;border-radius:11px;background:#c8102e;color:#fff;font-size:12px;font-weight:700;line-height:22px;text-align:center;box-shadow:0 0 0 2px var(--bg)}
.panel{bottom:calc(var(--oy,20px) + 72px);width:384px;height:min(640px,calc(100vh - var(--oy,20px) - 92px));display:flex;flex-direction:column;background:var(--bg);color:var(--fg);border-radius:var(--rad);box-shadow:0 16px 48px rgba(0,0,0,.24);overflow:hidden;animation:in .2s ease-out}
@keyframes in{from{opacity:0;transform:translateY(12px)}}
.inline{height:100%}
.panel.warm{visibility:hidden;animation:none}
.inline .panel{position:relative;right:auto;bottom:auto;width:100%;height:100%;min-height:420px;box-shadow:none;border:1px solid var(--bd);animation:none}
.header{display:flex;align-items:center;gap:8px;padding:12px 10px;padding-inline-start:18px;background:var(--a);color:var(--at)}
.header h2{margin:0;margin-inline-end:auto;font-size:16px;font-weight:650;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.icon{flex:none;width:36px;height:36px;border:0;border-radius:50%;background:transparent;display:grid;place-items:center}
.icon:hover,.pill:hover{background:rgba(127,127,127,.2)}
.pill{flex:1;max-width:max-content;border:1px solid;border-radius:99px;background:transparent;padding:4px 12px;font-size:13px;line-height:1.2}
.banner{margin:0;padding:8px 18px;font-size:13px;background:var(--bb);border-bottom:1px solid var(--bd)}
.log{flex:1;overflow-y:auto;overscroll-behavior:contain;overflow-anchor:none}
.thread{padding:16px;display:flex;flex-direction:column;gap:10px}
.log:focus-visible{outline-offset:-2px}
.msg{display:flex;flex-direction:column;align-items:flex-start;gap:6px;max-width:min(86%,560px)}
.msg.user{align-self:flex-end;align-items:flex-end}
.msg:has(.table){max-width:100%}
.bubble{padding:9px 13px;border-radius:18px;border-end-start-radius:6px;background:var(--bb);overflow-wrap:anywhere;max-width:100%}
.user .bubble{background:var(--a);color:var(--at);border-radius:18px;border-end-end-radius:6px;white-space:pre-wrap}
.bubble p,.bubble ul,.bubble ol,.bubble blockquote,.bubble .code,.bubble .table{margin:0 0 6px}
.bubble>:first-child{margin-top:0}.bubble>:last-child{margin-bottom:0}
.plain{white-space:pre-wrap}.nowrap{white-space:nowrap}.show-more{display:block;margin-top:4px}
.drop-target{position:absolute;inset:8px;display:flex;align-items:center;justify-content:center;padding:16px;text-align:center;font-weight:600;color:var(--ac);background:color-mix(in srgb,var(--bg) 94%,transparent);border:2px dashed var(--ac);border-radius:var(--rad);pointer-events:none;z-index:2}
.bubble a{color:inherit}
.who,.status,.time{font-size:12px;color:var(--mu);margin:0 4px}
.who{display:flex;align-items:center;gap:6px;margin:0}
.who .name{font-weight:600}
.who .ai{font-size:11px;font-weight:600;line-height:16px;padding:0 5px;border:1px solid currentColor;border-radius:4px;white-space:nowrap}
.avatar{width:24px;height:24px;border-radius:50%;flex:none;object-fit:cover;background:var(--bb)}
span.avatar{display:grid;place-items:center;color:#fff;font-size:10px;font-weight:700;line-height:1}
.av0{background:#2454d6}.av1{background:#0b6e4f}.av2{background:#b3261e}.av3{background:#7b4a0b}.av4{background:#6a3fb5}.av5{background:#0e6a78}
.msg.more{margin-top:-6px}
.joined{align-self:center;margin:4px 0;font-size:12px;color:var(--mu);text-align:center}
.starters{display:flex;flex-flow:row wrap;gap:6px;justify-content:flex-end;align-self:flex-end;max-width:90%}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.typing{display:flex;gap:4px;padding:13px 14px;background:var(--bb);border-radius:18px;border-end-start-radius:6px;align-self:flex-start}
.typing i{width:7px;height:7px;border-radius:50%;background:var(--mu);animation:bl 1.2s infinite}
.typing i:nth-child(2){animation-delay:.2s}
.typing i:nth-child(3){animation-delay:.4s}
@keyframes bl{0%,60%,100%{opacity:.3}30%{opacity:1}}
.status.sending{animation:late 0s 1.5s both}
@keyframes late{from{visibility:hidden}to{visibility:visible}}
.jump{position:sticky;bottom:6px;align-self:center;border:0;border-radius:99px;background:var(--a);color:var(--at);padding:6px 14px;font-size:13px;box-shadow:0 2px 8px rgba(0,0,0,.2)}
.older{align-self:center;border:1px solid var(--bd);border-radius:99px;background:var(--bg);padding:4px 14px;font-size:13px}
.older[aria-disabled=true]{opacity:.55;cursor:default}
.actions{display:flex;flex-direction:column;gap:6px}
.btn{display:inline-flex;align-items:center;justify-content:center;min-height:36px;padding:6px 14px;border:1px solid var(--ac);border-radius:99px;background:var(--bg);color:var(--ac);font-size:14px;font-weight:550;text-decoration:none;text-align:center}
.btn:hover{background:var(--bb)}
.card{border:1px solid var(--bd);border-radius:14px;background:var(--bg);overflow:hidden}
.card{width:240px;display:flex;flex-direction:column}
.card img{width:100%;height:130px;object-fit:cover;display:block;background:var(--bb)}
.card-body{padding:10px 12px;flex:1}
.card-body p{margin:2px 0 0;color:var(--mu);font-size:13px}
.card-body strong{display:block}
.card .actions{padding:0 12px 12px}
a.card-title{color:inherit}
.zoom{display:block;padding:0;border:0;background:none;cursor:zoom-in;border-radius:inherit;flex:none;outline-offset:-3px}
.card .zoom{width:100%}
.error{display:flex;align-items:center;gap:8px;margin:0;padding:8px 18px;font-size:13px;background:var(--eb);color:var(--ef)}
.error button{border:0;background:none;padding:0;text-decoration:underline;font-weight:600}
.error .dismiss{margin-inline-start:auto;width:28px;height:28px;display:grid;place-items:center}
.error .dismiss svg{width:16px;height:16px}
.composer{display:flex;align-items:flex-end;gap:8px;padding:10px 12px;border-top:1px solid var(--bd)}
.chars{margin:0;padding:6px 14px 0;font-size:12px;color:var(--mu);border-top:1px solid var(--bd)}
.chars+.composer{border-top:0}
.chars.over{color:var(--ef)}
textarea{flex:1;resize:none;margin:0;min-height:42px;max-height:140px;field-sizing:content;padding:9px 14px;border:1px solid var(--bd);border-radius:21px;background:var(--bg);color:var(--fg);font:inherit;font-size:16px;line-height:22px}
textarea::placeholder{color:var(--mu)}
.composer .icon{width:42px;height:42px;color:var(--mu)}
.send,.primary{border:0;background:var(--a);color:var(--at)}
.send{width:42px;height:42px;border-radius:50%;display:grid;place-items:center;flex:none}
.send:disabled{cursor:default;background:var(--bb);color:var(--mu)}
.btn:disabled{opacity:.55;cursor:default}
.end{padding:16px;text-align:center;border-top:1px solid var(--bd)}
.end p{margin:0 0 10px;color:var(--mu)}
.end>p{outline:0}
.primary{border-radius:99px;padding:10px 18px;font-weight:600}
.primary[aria-disabled=true]{background:var(--bb);color:var(--mu);cursor:default}
.team{margin:0;padding:6px 18px;font-size:13px;color:var(--mu);border-bottom:1px solid var(--bd)}
.muted{margin:0;color:var(--mu);font-size:13px}
.feedback{display:flex;flex-wrap:wrap}
.feedback>p{align-self:center;padding-inline-start:8px}
.feedback [aria-pressed=true]{color:var(--ac);background:var(--bb)}
.down svg{transform:scaleY(-1)}
.reach{display:flex;flex-direction:column}.reach:empty{display:none}.panel>.pill,.reach>.pill{flex:none;align-self:center}
.panel>.pill,.reach>.pill,.end .pill{margin:8px}
.bare .proactive,.bare .panel{bottom:var(--oy,20px)}
.menu-wrap{position:relative;flex:none}
.menu-wrap>button svg{stroke-width:3.5}
@media(min-width:481px){.float.expanded .panel{top:20px;height:auto}}
@media(max-width:480px){.reach{flex-direction:row;align-items:center;gap:8px;padding:4px 12px;border-bottom:1px solid var(--bd)}.reach>.pill{margin:0;padding:3px 10px}.reach>.team{flex:1;padding:0;border:0;font-size:12px;line-height:1.25}.banner{padding:4px 12px;font-size:12px;line-height:1.3}.float .panel{left:0;right:0;top:var(--vt,0);bottom:auto;width:100%;height:var(--vh,100%);border-radius:0}.float.open .launcher{display:none}}
@media(prefers-reduced-motion:reduce){*{transition:none!important;scroll-behavior:auto!important}:not(.sending){animation:none!important}}
`;

let sheet: CSSStyleSheet | undefined;
/** The CSS of the chunks that have come (the parts', parts-styles.ts; the Markdown's, markdown-styles.ts), one sheet for every root. */
let chunkCss = '';
let chunkSheet: CSSStyleSheet | undefined;

/**
 * Gives `root` the widget's styles (`CSS`, then `more`: the badge kinds' the chat draws): shared
 * sheets, or `{bff}/widget.css` (all of the CSS) where sheets can't be constructed.
 */
export function adoptStyles(root: ShadowRoot, bff: string, more = ''): void {
  try {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS + more);
      chunkSheet = new CSSStyleSheet();
      chunkSheet.replaceSync(chunkCss);
    }
    root.adoptedStyleSheets = [sheet, chunkSheet!];
  } catch {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = bff + '/widget.css';
    root.append(link);
  }
}

/** A chunk is in: its CSS joins every root's styles, also those made later (widget.css has it already). */
export function styleChunk(css: string): void {
  chunkCss += css;
  chunkSheet?.replaceSync(chunkCss);
}

/** Black or white text, whichever reads better on the hex `color` (undefined for other syntaxes). */
export function textOn(color: string | undefined): string | undefined {
  const m = /^#([\da-f]{3}|[\da-f]{6})$/i.exec((color || '').trim());
  if (!m) return undefined;
  const hex = m[1]!.length === 3 ? m[1]!.replace(/./g, '$&$&') : m[1]!;
  return luminance([0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16))) > 0.179 ? '#111' : '#fff';
}

/** Relative luminance (WCAG) of sRGB channels 0–255: 0 is black, 1 white. */
export function luminance(rgb: number[]): number {
  const [r = 0, g = 0, b = 0] = rgb.map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
