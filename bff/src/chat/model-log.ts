import type { Message, StoredEvent } from '../../../shared/types.js';

/** True when a question before `u_<key>`, asked since `since` (ms), has neither an answer nor a failure in `events`. */
export function openEarlierTurn(events: StoredEvent[], key: string, since: number): boolean {
  const settled = new Set<string>();
  for (const e of events) {
    if (e.event === 'message' && e.data.id.startsWith('b_')) settled.add(e.data.id.slice(2));
    if (e.event === 'error' && e.data.replyTo?.startsWith('u_')) settled.add(e.data.replyTo.slice(2));
  }
  for (const e of events) {
    if (e.event !== 'message' || e.data.role !== 'user' || !e.data.id.startsWith('u_')) continue;
    const earlier = e.data.id.slice(2);
    if (earlier === key) return false;
    if (!settled.has(earlier) && e.ts >= since) return true;
  }
  return false;
}

/** The `message` events of a log, in log order; a repeated id keeps its first place and latest content. */
export function messagesOf(events: StoredEvent[]): Message[] {
  const byId = new Map<string, Message>();
  for (const e of events) if (e.event === 'message') byId.set(e.data.id, e.data);
  return [...byId.values()];
}
