// The service's history does not name operators; the BFF remembers who wrote each operator
// message it received by webhook (EventStore.rememberAuthor), and history reads it back.
import type { Message } from '../../../shared/types.js';
import type { AppDeps } from '../context.js';

/** Remembers the author of an operator message from a webhook, for history after the event's retention. */
export function rememberOperator(deps: Pick<AppDeps, 'store' | 'logger'>, conversationId: string, message: Message): void {
  if (message.role !== 'operator' || message.author?.name === undefined) return;
  deps.store.rememberAuthor(conversationId, message.id, message.author).catch((err: unknown) =>
    deps.logger.warn('operator name not remembered', { conversationId, error: String(err) }),
  );
}

/** `items` with each operator message's author as its live event named it, where remembered. */
export async function withAuthors(store: AppDeps['store'], conversationId: string, items: Message[]): Promise<Message[]> {
  if (!items.some((m) => m.role === 'operator')) return items;
  const authors = await store.authorsOf(conversationId);
  if (authors.size === 0) return items;
  return items.map((m) => {
    const author = m.role === 'operator' ? authors.get(m.id) : undefined;
    return author ? { ...m, author, ...(author.name !== undefined && { operatorName: author.name }) } : m;
  });
}
