import { Hono } from 'hono';
import { FEEDBACK_COMMENT_MAX_LENGTH, type FeedbackValue } from '../../../shared/types.js';
import type { AppDeps, AppEnv } from '../context.js';
import { ValidationError } from '../errors.js';
import { readJsonObject } from '../lib/http.js';
import { requireFeature, requireSession } from '../middleware.js';
import { answerVote } from '../chat/feedback-log.js';
import { callAllowance } from './conversation.js';

const MESSAGE_ID = /^[A-Za-z0-9_:.-]{1,128}$/;

/** Engagement routes of one conversation (docs/api.md "Engagement"): votes on answers, stopping a model reply. */
export function engagementRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const auth = requireSession(deps);
  const calls = callAllowance(deps);

  app.post('/api/feedback', auth, calls, async (c) => {
    const { conversationId } = c.get('session');
    const vote = parseVote(await readJsonObject(c, deps.config.bodyIdleTimeoutMs));
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

  app.post('/api/stop', auth, calls, requireFeature(deps, 'stop'), async (c) => {
    await deps.chat.stop!(c.get('session').conversationId); // requireFeature: stop is there
    return c.json({}, 202);
  });

  return app;
}

function parseVote(body: Record<string, unknown>): { messageId: string; value: FeedbackValue; comment?: string } {
  const { messageId, value, comment } = body;
  if (typeof messageId !== 'string') throw new ValidationError('"messageId" must be a string');
  if (!MESSAGE_ID.test(messageId)) {
    throw new ValidationError('"messageId" must be the id of an answer in this conversation', 'unknown_message');
  }
  if (value !== 'up' && value !== 'down') throw new ValidationError('"value" must be "up" or "down"', 'feedback_invalid');
  if (comment === undefined || comment === null) return { messageId, value };
  if (typeof comment !== 'string') throw new ValidationError('"comment" must be a string', 'feedback_invalid');
  const trimmed = comment.replace(/\r\n?/g, '\n').trim();
  if (trimmed.length > FEEDBACK_COMMENT_MAX_LENGTH) {
    throw new ValidationError(`"comment" must be at most ${FEEDBACK_COMMENT_MAX_LENGTH} characters`, 'comment_too_long');
  }
  return trimmed === '' ? { messageId, value } : { messageId, value, comment: trimmed };
}
