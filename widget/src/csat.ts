/**
 * The CSAT question at the end of a conversation (docs/api.md "People"): whether to ask, and the
 * rating itself (rating.ts, in the parts chunk with the question). Every tab learns of a rating from the stream (`csat` event) and shows the thanks.
 */
import type { PublicConfig } from '../../shared/types.js';
import type { ChatMessage } from './messages.js';

/** Whether the policy asks this ended conversation for a rating (`after_operator`: only where a person wrote). */
export function asksForRating(policy: PublicConfig['csat'], messages: ChatMessage[]): boolean {
  if (policy === 'after_operator') return messages.some((m) => m.role === 'operator');
  return policy === 'always';
}
