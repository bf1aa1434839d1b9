import { Hono } from 'hono';
import type { AppDeps, AppEnv } from '../context.js';
import { ValidationError } from '../errors.js';
import { callAllowance, requireFeature } from '../middleware.js';
import { routeMounter } from './mount.js';
import { answerVote } from '../chat/feedback-log.js';

/** Engagement routes of one conversation (docs/api.md "Engagement"): votes on answers, stopping a model reply. */
export function engagementRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const route = routeMounter(app, deps);
  const calls = callAllowance(deps);

  route('POST /api/feedback', [calls], async (c) => {
    const { conversationId } = c.get('session');
    const { messageId, value, comment } = c.req.valid('json');
    const vote = comment === undefined ? { messageId, value } : { messageId, value, comment };
    const before = await answerVote(deps.store, conversationId, vote.messageId);
    if (!before.answer) {
      throw new ValidationError('There is no answer with this "messageId" in this conversation', 'unknown_message');
    }
    // The log is the record: every tab and a reload see the vote; the latest vote on a message wins.
    await deps.store.append(conversationId, { event: 'feedback', data: vote });
    // A comment sent after the thumbs down repeats the vote: counted once.
    if (before.vote !== vote.value) deps.observer?.feedback?.(vote.value);
    deps.feedback?.deliver({ sessionId: conversationId, ...vote, createdAt: new Date(deps.now?.() ?? Date.now()).toISOString() });
    return c.json({}, 202);
  });

  route('POST /api/stop', [calls, requireFeature(deps, 'stop')], async (c) => {
    await deps.chat.stop!(c.get('session').conversationId); // requireFeature: stop is there
    return c.json({}, 202);
  });

  return app;
}
