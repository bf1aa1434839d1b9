/** Sending the CSAT rating (csat.ts says when it is asked); in the parts chunk, with the question. */
import { ApiError } from './api.js';
import type { Auth } from './auth.js';

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
