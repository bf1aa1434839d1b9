import { lexer, type Token } from 'marked';

/**
 * The text a reader sees in a Markdown message, without its marks: `**Talk to a person**` is
 * "Talk to a person", `[returns](https://…)` is "returns", a list's items are joined by spaces.
 * Parsed by marked (CommonMark + GFM) rather than by patterns: the model's answers use the whole
 * of Markdown, and a pattern would leave half of it raw. Nothing is rendered as HTML.
 */
export function markdownToText(markdown: string): string {
  return lexer(markdown).map(textOf).join(' ').replace(/\s+/g, ' ').trim();
}

function textOf(token: Token): string {
  switch (token.type) {
    case 'space':
    case 'hr':
    case 'def':
      return ' ';
    case 'br':
      return ' ';
    case 'code':
    case 'codespan':
    case 'escape':
    case 'html':
      return token.text as string;
    case 'list':
      return (token.items as Token[]).map(textOf).join(' ');
    case 'table':
      return [token.header, ...(token.rows as unknown[][])].map((row) => (row as { tokens: Token[] }[]).map((cell) => cell.tokens.map(textOf).join('')).join(' ')).join(' ');
    default: {
      const inner = (token as { tokens?: Token[] }).tokens;
      if (inner) return inner.map(textOf).join(/^(list_item|blockquote)$/.test(token.type) ? ' ' : '');
      return typeof (token as { text?: unknown }).text === 'string' ? (token as { text: string }).text : '';
    }
  }
}
