/**
 * The CSS of what answers' Markdown draws (markdown-render.ts): headings, quotes, lists, tables,
 * task lists, code. It comes with the Markdown chunk (`styleChunk`, styles.ts); until then an answer
 * shows as plain paragraphs, which the chat's own CSS styles. `widget.css` has it too.
 */
export const MARKDOWN_CSS = `
.bubble :is(h3,h4,h5,h6){margin:10px 0 4px;font-size:15px;line-height:1.3}.bubble h3{font-size:16px}
.bubble blockquote{padding-inline-start:10px;border-inline-start:3px solid var(--bd)}
.table{overflow-x:auto}.table table{border-collapse:collapse;font-size:14px}.table :is(th,td){border:1px solid var(--bd);padding:4px 8px;white-space:nowrap;text-align:start}
li:has(>.task){list-style:none}.copy{display:block;margin-top:4px;margin-inline-start:auto}
.bubble ul,.bubble ol{padding-inline-start:20px}
code{font:13px ui-monospace,Menlo,Consolas,monospace;background:rgba(127,127,127,.16);padding:1px 4px;border-radius:4px}
pre{margin:0;white-space:pre-wrap;padding:8px;background:rgba(127,127,127,.12);border-radius:8px}
pre code{background:none;padding:0}
`;
