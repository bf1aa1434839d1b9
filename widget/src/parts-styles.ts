/**
 * The CSS of the parts chunk's components (parts.ts): the pre-chat and away forms, chosen files' chips,
 * the rating, a signed-in visitor's list of conversations, the header's menu and the lightbox. It comes with them, so a
 * visitor who never sees one never downloads its rules; `styleChunk` (styles.ts) adds them to the sheet
 * every root holds. `widget.css` has it after the chat's own CSS.
 */
export const PARTS_CSS = `
.proactive{bottom:calc(var(--oy,20px) + 72px);max-width:280px;display:flex;background:var(--bg);border-radius:var(--rad);box-shadow:0 6px 20px rgba(0,0,0,.22)}
.proactive-text{border:0;background:none;text-align:start;padding:8px}
@media(prefers-reduced-motion:no-preference){.proactive{animation:in .3s}}
.comment{display:flex;align-items:flex-end;gap:6px;width:100%}
.comment textarea{min-height:64px;border-radius:12px;font-size:14px;padding:8px 12px}
.menu{position:absolute;top:calc(100% + 6px);inset-inline-end:0;z-index:2;min-width:190px;padding:4px;background:var(--bg);color:var(--fg);border:1px solid var(--bd);border-radius:10px;box-shadow:0 8px 24px rgba(0,0,0,.2)}
.menu button{display:flex;gap:12px;width:100%;border:0;border-radius:6px;background:none;color:inherit;font:inherit;padding:8px 12px;text-align:start;cursor:pointer;white-space:nowrap}
.menu button:hover,.menu button:focus{background:var(--bb)}
.menu [aria-checked]::after{content:'';margin-inline-start:auto;width:1em}
.menu [aria-checked=true]::after{content:'✓'}
dialog.lightbox{position:fixed;inset:0;border:0;padding:0;background:none;max-width:100vw;max-height:100vh;width:100vw;height:100vh;display:grid;place-items:center}
dialog.lightbox::backdrop{background:rgba(0,0,0,.8)}
dialog.lightbox img{width:auto;height:auto;max-width:calc(100vw - 32px);max-height:calc(100vh - 96px);object-fit:contain;border-radius:8px;background:#fff}
dialog.lightbox,dialog.lightbox img{touch-action:pinch-zoom}
@media(max-width:480px){dialog.lightbox{height:100dvh;max-height:100dvh}dialog.lightbox img{width:100vw;max-width:100vw;max-height:calc(100dvh - 120px);border-radius:0}}
dialog.lightbox .icon{position:fixed;top:12px;inset-inline-end:12px;background:rgba(0,0,0,.6);color:#fff}
dialog.lightbox .icon:focus-visible{outline-color:#fff}
.progress{width:140px;max-width:100%;height:4px;border-radius:2px;background:var(--bd);overflow:hidden}
.progress i{display:block;height:100%;background:var(--ac);transition:width .2s}
.chips{display:flex;flex-wrap:wrap;gap:6px;margin:0;padding:8px 12px 0;list-style:none;max-height:35vh;overflow-y:auto;border-top:1px solid var(--bd)}
.chips+.composer{border-top:0}
.chip{display:flex;align-items:center;gap:6px;max-width:100%;padding:3px;padding-inline-start:4px;border:1px solid var(--bd);border-radius:10px;font-size:13px}
.chip.failed{border-color:var(--ef)}
.chip canvas,.chip>svg{flex:none;width:32px;height:32px;border-radius:6px}
.chip>svg{padding:4px;color:var(--mu)}
.attachments{display:flex;flex-direction:column;align-items:flex-end;gap:4px;margin:0;padding:0;list-style:none}
.attachments li{display:flex;align-items:center;gap:8px;max-width:100%;padding:4px;padding-inline-end:10px;border:1px solid var(--bd);border-radius:12px;background:var(--bg);font-size:13px}
.attachments canvas,.attachments svg{flex:none;width:48px;height:48px;border-radius:8px}
.attachments svg{padding:10px;color:var(--mu)}
.attachments .name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;max-width:200px}
.chip .name{overflow:hidden;text-overflow:ellipsis;white-space:nowrap;max-width:130px}
.chip .size{color:var(--mu);white-space:nowrap}
.chip .progress{width:48px}
.chip .status{margin:0}
.chip .icon{width:28px;height:28px}
.chip .icon svg{width:16px;height:16px}
.csat{display:grid;gap:10px;margin:0 0 12px}
.csat .primary{justify-self:center}
.csat fieldset{border:0;margin:0;padding:0}
.csat legend{padding:0;margin:0 auto 8px;font-weight:600}
.scale{display:flex;justify-content:center;gap:8px}
.scale label{width:40px;height:40px;border:1px solid var(--bd);border-radius:50%;display:grid;place-items:center;cursor:pointer;font-weight:600}
.scale label.on{background:var(--a);color:var(--at);border-color:var(--a)}
.scale label:focus-within{outline:2px solid var(--ac);outline-offset:2px}
.end .scale-ends{display:flex;justify-content:space-between;width:248px;max-width:100%;margin:4px auto 0;font-size:12px}
.csat-comment{display:grid;gap:4px;text-align:start;font-size:13px;color:var(--mu)}
.csat-comment textarea{flex:none;min-height:64px;resize:vertical;border-radius:12px;padding:8px 12px;font:inherit;color:var(--fg);background:var(--bg)}
.contact{display:grid;grid-template-columns:minmax(0,1fr);gap:6px;padding:10px 14px;border-top:1px solid var(--bd);font-size:13px}
.contact-row{display:flex;gap:8px}
.contact input[type=email],.prechat input:not([type=checkbox]){flex:1;min-width:0;height:40px;box-sizing:border-box;padding:0 12px;border:1px solid var(--bd);border-radius:20px;background:var(--bg);color:var(--fg);font:inherit;font-size:16px}
.contact input[aria-invalid=true],.prechat input[aria-invalid=true]{border-color:var(--ef)}
.contact .primary,.prechat .primary{padding:0 16px;height:40px}
.prechat{display:grid;grid-template-columns:minmax(0,1fr);gap:8px;padding:12px 14px;border-top:1px solid var(--bd);font-size:13px}
.prechat>p{margin:0}
.prechat>p:not(.error){font-weight:600;font-size:14px}
.prechat>p.note{font-weight:400;font-size:13px;color:var(--mu)}
.prechat label{display:grid;gap:4px;color:var(--mu)}
.prechat label.consent{display:flex}
.prechat-actions{display:flex;gap:8px;align-items:center}
.consent{display:flex;gap:8px;align-items:flex-start;color:var(--mu)}
.contact .error,.prechat .error{padding:6px 10px;border-radius:8px;margin:0}
.end .csat-thanks{font-weight:600;color:var(--fg);outline:0}
.conversations{flex:1;display:flex;flex-direction:column;gap:10px;padding:14px 16px;overflow:auto;min-height:0}
.conversations h3{margin:0;font-size:15px;outline:0}
.conversations ul{list-style:none;margin:0;padding:0;display:grid;gap:6px}
.conversations li button{width:100%;display:grid;gap:2px;text-align:start;padding:10px 12px;border:1px solid var(--bd);border-radius:12px;background:var(--bg)}
.conversations li button:hover{background:var(--bb)}
.convo-title,.convo-last{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.convo-last{font-weight:400}
.conversations .log{flex:1;border:1px solid var(--bd);border-radius:12px}
`;
