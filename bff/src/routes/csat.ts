import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context.js';
import { conversationFacts } from '../chat/conversation-facts.js';
import { AppError } from '../errors.js';
import { callAllowance } from '../middleware.js';
import { routeMounter } from './mount.js';

/** How long a rating's claim holds while its write to the service runs (a server gone mid-way frees it then). */
const CLAIM_RUNNING_MS = 2 * 60_000;
const CLAIM_DONE_MS = 60 * 60_000;

/** POST /api/csat: the visitor rates the whole conversation once, after it was archived (docs/api.md "People"). */
export function csatRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  routeMounter(app, deps)('POST /api/csat', [callAllowance(deps)], async (c) => {
    const { conversationId } = c.get('session');
    const { score, comment } = c.req.valid('json');
    const seen = await conversationFacts(deps.store, conversationId);
    if (seen.rated) throw new AppError('already_rated', 'This conversation has been rated already');
    const policy = deps.config.csat;
    if (policy === 'off' || !seen.archived || (policy === 'after_operator' && !seen.operator)) {
      throw new AppError('not_rateable', 'This conversation is not asking for a rating');
    }
    // Claimed before anything is written: of two tabs rating at once, the one that loses the claim
    // writes nowhere, so the service, the stream, the metric and the forward all hold the winner's score.
    const claim = `csat:${conversationId}`;
    const held = await deps.starts.begin(claim, CLAIM_RUNNING_MS);
    if (held.status !== 'claimed') throw new AppError('already_rated', 'This conversation has been rated already');
    try {
      await deps.chat.setUserVariables(conversationId, { csat: score, ...(comment !== undefined && { csat_comment: comment }) });
    } catch (err) {
      await deps.starts.abandon(claim).catch(() => {}); // the visitor may try again
      throw err;
    }
    const stored = await deps.store.append(conversationId, { event: 'csat', data: comment === undefined ? { score } : { score, comment } }, { dedupKey: `csat:${conversationId}` });
    // Kept as long as the claim is useful: past it, the stored event says the conversation was rated.
    await deps.starts.finish(claim, String(score), CLAIM_DONE_MS).catch(() => {});
    if (stored.status === 'duplicate') throw new AppError('already_rated', 'This conversation has been rated already');
    deps.observer?.csat?.(score);
    const createdAt = new Date(deps.now?.() ?? Date.now()).toISOString();
    deps.feedback?.deliver({ type: 'csat', sessionId: conversationId, score, ...(comment !== undefined && { comment }), createdAt });
    return c.json({}, 202);
  });

  return app;
}
