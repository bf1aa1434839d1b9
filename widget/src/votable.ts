/** Which answers get thumbs (issue 21 item 4): one per bot turn, the answer itself. */
import type { ChatMessage } from './messages.js';
import type { Convo } from './state.js';

/**
 * The ids of the messages that take a vote: in each bot turn (the messages between two of the
 * visitor's), the last bot message that is an answer, so not its lead-ins, and never a file.
 * A turn with an operator in it has none: its bot lines were the handoff notice, and a person
 * answers there. Nor has the last bot line while the conversation waits for a person (the notice
 * that one is coming), also after the visitor has written again.
 */
export function votableIds(list: readonly ChatMessage[], convo: Convo): Set<string> {
  const ids = new Set<string>();
  let candidate: string | undefined;
  let operator = false;
  const close = () => {
    if (candidate && !operator) ids.add(candidate);
    candidate = undefined;
    operator = false;
  };
  let notice: string | undefined;
  for (const m of list) {
    if (m.role === 'user') close();
    else if (m.role === 'operator') operator = true;
    else if (m.src !== 'l' && m.badge?.type !== 'file') notice = candidate = m.id;
  }
  close();
  // Waiting for a person: the last bot line is the notice that one is coming, even once the visitor has written again.
  if (convo === 'escalated' && notice) ids.delete(notice);
  return ids;
}
