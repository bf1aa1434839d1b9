/** Which answers get thumbs: one per bot turn, the answer itself. */
import { rendererOf } from './badges/index.js';
import type { ChatMessage } from './messages.js';
import type { Convo } from './state.js';

/**
 * Where thumbs show, and for which answer: in each bot turn (the messages between two of the
 * visitor's), the vote is on the last bot message that is an answer, so not its lead-ins and never
 * a badge whose kind is not an answer (a file: badges/), and it shows under the turn's last bot
 * message, so under the whole answer when a file follows the text ("Here is our size guide:",
 * then the file). Keys are where, values what.
 * A turn with an operator in it has none: its bot lines were the handoff notice, and a person
 * answers there. The bot's lines about the handoff (`handoff`: those that came once a person had the
 * conversation) end the turn before them and take no vote, so the answer before a "Talk to a person"
 * keeps its thumbs. Where those lines are not known (handed over before this page saw it), the last
 * bot line while the conversation waits for a person is taken for the notice that one is coming,
 * also after the visitor has written again.
 */
export function votePlaces(list: readonly ChatMessage[], convo: Convo, handoff?: readonly string[]): Map<string, string> {
  const places = new Map<string, string>();
  let candidate: string | undefined;
  let last: string | undefined;
  let operator = false;
  const close = () => {
    if (candidate && last && !operator) places.set(last, candidate);
    candidate = last = undefined;
    operator = false;
  };
  let notice: string | undefined;
  for (const m of list) {
    if (m.role === 'user') close();
    else if (m.role === 'operator') operator = true;
    else if (handoff?.includes(m.id)) close();
    else if (m.src !== 'l') {
      last = m.id;
      if (!m.badge || rendererOf(m.badge).answer !== false) notice = candidate = m.id;
    }
  }
  close();
  // Waiting for a person: the last bot line is the notice that one is coming, even once the visitor has written again.
  if (convo === 'escalated' && notice && !handoff) for (const [at, id] of places) if (id === notice) places.delete(at);
  return places;
}
