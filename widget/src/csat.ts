/**
 * The CSAT question at the end of a conversation (docs/api.md "People"): whether to ask, and the
 * rating itself. Every tab learns of a rating from the stream (`csat` event) and shows the thanks.
 */
import type { PublicConfig } from '../../shared/types.js';
import { ApiError } from './api.js';
import type { Auth } from './auth.js';
import type { ChatMessage } from './messages.js';

/** Whether the policy asks this ended conversation for a rating (`after_operator`: only where a person wrote). */
export function asksForRating(policy: PublicConfig['csat'], messages: ChatMessage[]): boolean {
  if (policy === 'after_operator') return messages.some((m) => m.role === 'operator');
  return policy === 'always';
}

/**
 * Sends the rating. Resolves `true` when it is recorded, here or before (`409 already_rated`: another
 * tab or device was first), `false` when the policy no longer asks (`409 not_rateable`); throws on
 * anything else, so the question stays and can be sent again.
 */
export async function sendRating(auth: Auth, rated: (r: { score: number; comment?: string }) => void, score: number, comment?: string): Promise<boolean> {
  try {
    await auth.authed('POST /api/csat', { body: { score, ...(comment && { comment }) } });
  } catch (e) {
    if (!(e instanceof ApiError) || e.status !== 409) throw e;
    if (e.code === 'not_rateable') return false;
  }
  rated({ score, ...(comment && { comment }) });
  return true;
}
