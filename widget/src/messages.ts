/**
 * Pure list operations on the conversation: merging history pages and stream events by `id`,
 * reconciling optimistic messages by `clientId`, and streamed text deltas.
 */
import type { Message } from '../../shared/types.js';

/** Where a message came from: history (`h`), the stream (`s`) or this tab, not yet confirmed (`l`). */
export type Source = 'h' | 's' | 'l';

/** A message as the widget shows it. */
export interface ChatMessage extends Message {
  src?: Source;
  /**
   * An optimistic user message on its way (`sending`), waiting for the network (`queued`), or
   * possibly delivered (`uncertain`: the service may have it, so it is not offered for resending).
   */
  pending?: 'sending' | 'queued' | 'uncertain';
  /** Text still arriving as `message_delta` events. */
  streaming?: boolean;
}

const TWIN_WINDOW_MS = 5 * 60_000;

/** A new `clientId` for an optimistic message. */
export const newId = () => 'c_' + Date.now().toString(36) + Math.random().toString(36).slice(2, 8);

/**
 * Merges `incoming` into `list`: a message with a known id (or the optimistic message with its
 * `clientId`) is updated in place; new ones go after (stream) or before (older history) the rest.
 */
export function mergeMessages(list: ChatMessage[], incoming: Message[], src: Source, prepend = false): ChatMessage[] {
  const out = list.slice();
  const added: ChatMessage[] = [];
  for (const m of incoming) {
    const next: ChatMessage = { ...m, src, pending: undefined, streaming: undefined };
    const i = findIndex(out, m, src);
    const j = i < 0 ? findIndex(added, m, src) : -1;
    if (i >= 0) out[i] = { ...out[i], ...next };
    else if (j >= 0) added[j] = next;
    else added.push(next);
  }
  return prepend ? added.concat(out) : out.concat(added);
}

function findIndex(list: ChatMessage[], m: Message, src: Source): number {
  const byId = list.findIndex((x) => x.id === m.id || (!!m.clientId && x.clientId === m.clientId));
  if (byId >= 0 || m.role !== 'user') return byId;
  // The history names a user message by its upstream id, the stream by the BFF's own id: the
  // same text from the other source, close in time, is the same message. So is a message of this
  // tab that may not have arrived (`uncertain`), which the service's copy confirms.
  return list.findIndex(
    (x) => x.role === 'user' && x.src !== src && (x.src !== 'l' || x.pending === 'uncertain') && x.text === m.text && near(x.createdAt, m.createdAt),
  );
}

function near(a?: string, b?: string): boolean {
  return !a || !b || Math.abs(Date.parse(a) - Date.parse(b)) < TWIN_WINDOW_MS;
}

/** Appends streamed text to the message `id`, creating it on the first delta. */
export function applyDelta(list: ChatMessage[], id: string, delta: string): ChatMessage[] {
  const i = list.findIndex((m) => m.id === id);
  if (i < 0) return [...list, { id, role: 'bot', text: delta, src: 's', streaming: true }];
  const out = list.slice();
  const m = out[i]!;
  out[i] = { ...m, text: (m.text || '') + delta };
  return out;
}

/** The list with no answer still streaming: none will end with its `message` any more (error, conversation ended). */
export function endStreams(list: ChatMessage[]): ChatMessage[] {
  return list.some((m) => m.streaming) ? list.map((m) => (m.streaming ? { ...m, streaming: undefined } : m)) : list;
}

/** How many messages the BFF knows of, i.e. the `offset` of the next older page. */
export function serverCount(list: ChatMessage[]): number {
  return list.filter((m) => m.src !== 'l').length;
}

/**
 * A visitor's message with files: its text ends with a line "📎 name, name" (what the BFF and the service
 * keep, so history has it too). `text` is what they wrote before it; `names` the files, in order.
 */
export function attachmentsOf(text: string): { text: string; names: string[] } {
  const at = text.search(/(?:^|\n)📎 [^\n]*$/);
  if (at < 0) return { text, names: [] };
  const line = text.slice(at).replace(/^\n?📎 /, '');
  return { text: text.slice(0, at), names: line.split(', ').filter(Boolean) };
}
