import { Hono } from 'hono';
import { CsatBody } from '../../../shared/bodies.js';
import type { StoredEvent } from '../../../shared/types.js';
import type { AppDeps, AppEnv } from '../context.js';
import { AppError } from '../errors.js';
import { jsonBody, jsonBytes } from '../lib/body.js';
import { requireSession } from '../middleware.js';
import { callAllowance } from './conversation.js';


const READ_PAGE = 500;

/** POST /api/csat: the visitor rates the whole conversation once, after it was archived (docs/api.md "People"). */
export function csatRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/api/csat', requireSession(deps), callAllowance(deps), jsonBytes(deps.config.bodyIdleTimeoutMs), jsonBody(CsatBody), async (c) => {
    const { conversationId } = c.get('session');
    const { score, comment } = c.req.valid('json');
    const seen = await conversationFacts(deps, conversationId);
    if (seen.rated) throw new AppError('already_rated', 'This conversation has been rated already');
    const policy = deps.config.csat;
    if (policy === 'off' || !seen.archived || (policy === 'after_operator' && !seen.operator)) {
      throw new AppError('not_rateable', 'This conversation is not asking for a rating');
    }
    // Upstream first: two tabs rating at once both write the same variables, and only one is stored below.
    await deps.chat.setUserVariables(conversationId, { csat: score, ...(comment !== undefined && { csat_comment: comment }) });
    const stored = await deps.store.append(conversationId, { event: 'csat', data: comment === undefined ? { score } : { score, comment } }, { dedupKey: `csat:${conversationId}` });
    if (stored.status === 'duplicate') throw new AppError('already_rated', 'This conversation has been rated already');
    deps.observer?.csat?.(score);
    const createdAt = new Date(deps.now?.() ?? Date.now()).toISOString();
    deps.feedback?.deliver({ type: 'csat', sessionId: conversationId, score, ...(comment !== undefined && { comment }), createdAt });
    return c.json({}, 202);
  });

  return app;
}

/** What the retained log says: archived, an operator wrote, rated already. */
async function conversationFacts(deps: AppDeps, conversationId: string): Promise<{ archived: boolean; operator: boolean; rated: boolean }> {
  const facts = { archived: false, operator: false, rated: false };
  const visit = (e: StoredEvent) => {
    if (e.event === 'archived' || (e.event === 'state' && e.data.state === 'archived')) facts.archived = true;
    if (e.event === 'message' && e.data.role === 'operator') facts.operator = true;
    if (e.event === 'csat') facts.rated = true;
  };
  for (let after = 0; ; ) {
    const page = await deps.store.read(conversationId, after, READ_PAGE);
    page.forEach(visit);
    if (page.length < READ_PAGE) return facts;
    after = page[page.length - 1]!.id;
  }
}
