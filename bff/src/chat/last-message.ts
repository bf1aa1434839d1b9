/**
 * The newest message of each of a signed-in user's conversations, as their list shows it
 * (docs/api.md "Signed-in users", `GET /api/conversations`): one line of plain text and who wrote it.
 * It comes from the conversation's retained events (which name operators as the live event did),
 * else from the service's history (one page of its newest messages, operators named as remembered).
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { summarizeBadge } from '../../../shared/badge-kinds.js';
import { cleanLine } from '../../../shared/badge-text.js';
import type { ConversationSummary, LastMessage, Message } from '../../../shared/types.js';
import type { AppDeps } from '../context.js';
import { messagesOf } from './model-log.js';
import { withAuthors } from './remembered-authors.js';

/** How many of the newest conversations of a list get their last message: each may cost a read of the service's history. */
export const LAST_MESSAGE_ITEMS = 20;
/** Longest `lastMessage.text` (then cut with "…"); the widget shows one line of it. */
export const LAST_MESSAGE_LENGTH = 160;
/** Events read from the end of a conversation's log to find its newest message there. */
const TAIL = 20;
/** History items read when the log has none: the newest may hold nothing readable (an empty message). */
const HISTORY_PAGE = 5;

/** `items` with `lastMessage` on the newest `LAST_MESSAGE_ITEMS`; one that cannot be read is listed without it. */
export async function withLastMessages(deps: Pick<AppDeps, 'store' | 'chat' | 'logger'>, items: ConversationSummary[]): Promise<ConversationSummary[]> {
  return Promise.all(
    items.map(async (item, i) => {
      if (i >= LAST_MESSAGE_ITEMS) return item;
      try {
        const lastMessage = await lastMessageOf(deps, item.sessionId);
        return lastMessage ? { ...item, lastMessage } : item;
      } catch (err) {
        deps.logger.warn('a listed conversation\'s last message was not read', { conversationId: item.sessionId, error: String(err) });
        return item;
      }
    }),
  );
}

/** The conversation's newest message with something to read, from its log, else from the service's history. */
export async function lastMessageOf(deps: Pick<AppDeps, 'store' | 'chat'>, conversationId: string): Promise<LastMessage | undefined> {
  const last = await deps.store.lastId(conversationId);
  const retained = last > 0 ? messagesOf(await deps.store.read(conversationId, Math.max(0, last - TAIL), TAIL)) : [];
  const fromLog = newestReadable(retained);
  if (fromLog) return fromLog;
  const { items } = await deps.chat.listMessages(conversationId, HISTORY_PAGE, 0);
  return newestReadable(await withAuthors(deps.store, conversationId, items));
}

/** The newest of `messages` (oldest first) with words, as the list shows it. */
function newestReadable(messages: Message[]): LastMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    const text = lineOf(m);
    if (!text) continue;
    const kind = m.author?.kind ?? m.role;
    const name = kind === 'user' ? undefined : (m.author?.name ?? m.operatorName);
    return { text, author: { kind, ...(name !== undefined && { name }) }, ...(m.createdAt !== undefined && { at: m.createdAt }) };
  }
  return undefined;
}

/** A message as one line of plain text: its Markdown's words (no marks, no HTML), else its rich element's summary; '' when it has none. */
function lineOf(m: Message): string {
  const words = m.text ? plainText(Lexer.lex(m.text)) : '';
  return cleanLine(words, LAST_MESSAGE_LENGTH) ?? (m.badge ? cleanLine(summarizeBadge(m.badge), LAST_MESSAGE_LENGTH) : undefined) ?? '';
}

const BLOCKS = new Set(['heading', 'paragraph', 'blockquote', 'code', 'hr', 'space', 'br', 'list_item']);
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** The words of Markdown tokens: what a reader sees of them, with HTML tags left out. */
function plainText(tokens: Token[]): string {
  let out = '';
  for (const t of tokens) {
    if (t.type === 'html') continue;
    if (t.type === 'list') out += ` ${plainText((t as Tokens.List).items)} `;
    else if (t.type === 'table') {
      const table = t as Tokens.Table;
      out += ` ${[table.header, ...table.rows].flat().map((cell) => plainText(cell.tokens)).join(' ')} `;
    } else if ('tokens' in t && t.tokens) out += plainText(t.tokens);
    // Character references are read in text, as Markdown shows them; code shows them as written.
    else if (t.type === 'text') out += decodeEntities(t.text);
    else if ('text' in t && typeof t.text === 'string') out += t.text;
    if (BLOCKS.has(t.type)) out += ' ';
  }
  return out;
}

/** Character references as Markdown shows them (`&amp;` as `&`); a control character or a half of a surrogate pair becomes a space. */
function decodeEntities(text: string): string {
  return text.replace(/&(?:#(\d{1,7})|#x([\da-f]{1,6})|(\w+));/gi, (m, dec?: string, hex?: string, name?: string) => {
    if (name !== undefined) return ENTITIES[name.toLowerCase()] ?? m;
    const code = parseInt(dec ?? hex!, dec ? 10 : 16);
    return code > 0x1f && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : ' ';
  });
}
