import { Marked, type Tokens } from 'marked';
import { safeUrl } from '../../../shared/badge-url.js';

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * Markdown as an email may carry it: marked's parser, with every piece of raw HTML shown as text,
 * links kept only to http, https and mailto (as the widget's badges), and pictures turned into
 * links, since an email client that loads them tells the sender the email was opened.
 */
const markdown = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
    link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link): string {
      const label = this.parser.parseInline(token.tokens);
      const href = safeUrl(token.href);
      return href === undefined ? label : `<a href="${escapeHtml(href)}">${label}</a>`;
    },
    image(token: Tokens.Image): string {
      const href = safeUrl(token.href);
      const label = escapeHtml(token.text || token.href);
      return href === undefined ? label : `<a href="${escapeHtml(href)}">${label}</a>`;
    },
  },
});

/** Safe HTML of a message's Markdown. */
export function markdownHtml(text: string): string {
  return markdown.parse(text) as string;
}
