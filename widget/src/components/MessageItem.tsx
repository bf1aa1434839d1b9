/** One message: its time, who wrote it, its text (Markdown for the agent's side), its badge and the vote on an answer. */
import { markdown } from '../markdown.js';
import { senderOf, type ChatMessage } from '../messages.js';
import { formatTime, startsRun } from '../time.js';
import { BadgeView } from './Badge.js';
import type { Ctx } from './ctx.js';
import { Feedback } from './Feedback.js';

/**
 * A message bubble; `last` tells quick replies whether they are still current. Every message has
 * its `<time>`; only the first of a run (not within minutes of `prev`) shows it, the others say it to screen readers.
 */
export function MessageItem({ m, ctx, last, prev, votable }: { m: ChatMessage; ctx: Ctx; last: boolean; prev?: ChatMessage; votable?: boolean }) {
  const { strings } = ctx;
  const run = m.createdAt && startsRun(m.createdAt, prev?.createdAt);
  const who = senderOf(m, strings);
  return (
    <div class={`msg ${m.role}${m.badge?.type === 'carousel' ? ' wide' : ''}`}>
      {m.createdAt && (
        <time class={run ? 'time' : 'sr-only'} dateTime={m.createdAt} title={formatTime(m.createdAt, ctx.locale, true)} tabIndex={run ? 0 : undefined}>
          {formatTime(m.createdAt, ctx.locale)}
        </time>
      )}
      {m.role === 'operator' ? <div class="who">{who}</div> : <span class="sr-only">{who}:</span>}
      {/* dir=auto: each message reads in its own direction, so English in a right-to-left widget stays "Hello." */}
      {m.text && (
        <div class="bubble" dir="auto">
          {m.role === 'user' ? m.text : markdown(m.text)}
        </div>
      )}
      {m.badge && <BadgeView badge={m.badge} ctx={ctx} last={last} />}
      {m.progress !== undefined && (
        <div class="progress" role="progressbar" aria-label={strings.uploading} aria-valuenow={m.progress}>
          {/* A CSSOM width, not a style attribute: allowed under a CSP without unsafe-inline. */}
          <i style={{ width: m.progress + '%' }} />
        </div>
      )}
      {m.pending === 'queued' && <div class="status">{strings.queued}</div>}
      {m.pending === 'uncertain' && <div class="status">{strings.uncertain}</div>}
      {votable && m.role === 'bot' && m.src !== 'l' && !m.streaming && <Feedback ctx={ctx} id={m.id} />}
    </div>
  );
}
