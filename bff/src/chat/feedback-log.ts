import type { FeedbackValue, Message, StoredEvent } from '../../../shared/types.js';
import type { EventStore } from '../ports/event-store.js';

const READ_PAGE = 500;

/** `items` with the visitor's latest vote on each, from the conversation's log. */
export async function withVotes(store: EventStore, conversationId: string, items: Message[]): Promise<Message[]> {
  const votes = new Map<string, FeedbackValue>();
  await eachPage(store, conversationId, (page) => {
    for (const e of page) if (e.event === 'feedback') votes.set(e.data.messageId, e.data.value);
    return false;
  });
  return votes.size === 0 ? items : items.map((m) => (votes.has(m.id) ? { ...m, feedback: votes.get(m.id) } : m));
}

/**
 * Whether the conversation's retained log holds a bot or operator message `messageId` (`answer`),
 * and the visitor's latest vote on it so far.
 */
export async function answerVote(store: EventStore, conversationId: string, messageId: string): Promise<{ answer: boolean; vote?: FeedbackValue }> {
  let answer = false;
  let vote: FeedbackValue | undefined;
  await eachPage(store, conversationId, (page) => {
    for (const e of page) {
      if (e.event === 'message' && e.data.id === messageId && e.data.role !== 'user') answer = true;
      if (e.event === 'feedback' && e.data.messageId === messageId) vote = e.data.value;
    }
    return false;
  });
  return { answer, vote };
}

/** Reads the retained log page by page until `visit` returns true (then true) or the log ends (false). */
async function eachPage(store: EventStore, conversationId: string, visit: (page: StoredEvent[]) => boolean): Promise<boolean> {
  for (let after = 0; ; ) {
    const page = await store.read(conversationId, after, READ_PAGE);
    if (visit(page)) return true;
    if (page.length < READ_PAGE) return false;
    after = page[page.length - 1]!.id;
  }
}
