// What the BFF knows of a conversation from its retained event log, the same in both modes: the
// model appends `archived` itself, the agent's webhooks bring `archived` and `state` events.
import type { StoredEvent } from '../../../shared/types.js';
import { AppError } from '../errors.js';
import type { EventStore } from '../ports/event-store.js';

const READ_PAGE = 500;

/** Whether an event of the log closes the conversation. */
export function isArchiveEvent(e: StoredEvent): boolean {
  return e.event === 'archived' || (e.event === 'state' && e.data.state === 'archived');
}

/** The answer to anything sent into a closed conversation (409). */
export function archivedError(): AppError {
  return new AppError('conversation_archived', 'This conversation is closed');
}

/** What the retained log says: archived, an operator wrote, rated already. */
export async function conversationFacts(store: EventStore, conversationId: string): Promise<{ archived: boolean; operator: boolean; rated: boolean }> {
  const facts = { archived: false, operator: false, rated: false };
  const visit = (e: StoredEvent) => {
    if (isArchiveEvent(e)) facts.archived = true;
    if (e.event === 'message' && e.data.role === 'operator') facts.operator = true;
    if (e.event === 'csat') facts.rated = true;
  };
  for (let after = 0; ; ) {
    const page = await store.read(conversationId, after, READ_PAGE);
    page.forEach(visit);
    if (page.length < READ_PAGE) return facts;
    after = page[page.length - 1]!.id;
  }
}
