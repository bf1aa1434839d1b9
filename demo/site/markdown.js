// The agent's and the model's Markdown as DOM nodes for the operator, read by marked's lexer (the
// same parser as the list's previews, served by the demo from node_modules). No HTML is ever
// parsed: every piece of text goes in as text, raw HTML in a message shows as written, and a link
// keeps only an http(s) address.
import { lexer } from '/demo/vendor/marked.js';
import { el } from './dom.js';

/** `text` as block elements (paragraphs, lists, code, quotes, tables). */
export function markdownNodes(text) {
  return lexer(String(text)).map(block).filter(Boolean);
}

const inline = (tokens = []) => tokens.map(span);

function span(t) {
  switch (t.type) {
    case 'strong':
    case 'em':
    case 'del':
      return el(t.type, {}, inline(t.tokens));
    case 'codespan':
      return el('code', { text: t.text });
    case 'br':
      return el('br');
    case 'link':
      return /^https?:\/\//i.test(t.href) ? el('a', { href: t.href, target: '_blank', rel: 'noopener noreferrer' }, inline(t.tokens)) : el('span', {}, inline(t.tokens));
    case 'text':
      return t.tokens ? el('span', {}, inline(t.tokens)) : document.createTextNode(t.text);
    case 'escape':
    case 'image': // its alt text
      return document.createTextNode(t.text);
    default: // raw HTML and anything newer than this list: as written
      return document.createTextNode(t.raw);
  }
}

function block(t) {
  switch (t.type) {
    case 'space':
    case 'def':
      return null;
    case 'paragraph':
      return el('p', {}, inline(t.tokens));
    case 'heading':
      return el('p', {}, el('strong', {}, inline(t.tokens)));
    case 'text': // a tight list item's text
      return el('span', {}, t.tokens ? inline(t.tokens) : t.text);
    case 'code':
      return el('pre', {}, el('code', { text: t.text }));
    case 'blockquote':
      return el('blockquote', {}, t.tokens.map(block));
    case 'list':
      return el(t.ordered ? 'ol' : 'ul', t.ordered && t.start !== 1 ? { start: t.start } : {}, t.items.map((item) => el('li', {}, item.tokens.map(block))));
    case 'table':
      return el('table', {},
        el('thead', {}, el('tr', {}, t.header.map((cell) => el('th', {}, inline(cell.tokens))))),
        el('tbody', {}, t.rows.map((row) => el('tr', {}, row.map((cell) => el('td', {}, inline(cell.tokens)))))));
    case 'hr':
      return el('hr');
    default:
      return el('p', { text: t.raw });
  }
}
