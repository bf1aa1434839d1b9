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
export function MessageItem({ m, c, last, prev, votable }: { m: ChatMessage; c: Ctx; last: boolean; prev?: ChatMessage; votable?: boolean }) {
  const { t } = c;
  const run = m.createdAt && startsRun(m.createdAt, prev?.createdAt);
  const who = senderOf(m, t);
  return (
    <div class={`m ${m.role}${m.badge?.type === 'carousel' ? ' w' : ''}`}>
      {m.createdAt && (
        <time class={run ? 'tm' : 'sr'} dateTime={m.createdAt} title={formatTime(m.createdAt, c.locale, true)} tabIndex={run ? 0 : undefined}>
          {formatTime(m.createdAt, c.locale)}
        </time>
      )}
      {m.role === 'operator' ? <div class="who">{who}</div> : <span class="sr">{who}:</span>}
      {/* dir=auto: each message reads in its own direction, so English in a right-to-left widget stays "Hello." */}
      {m.text && (
        <div class="b" dir="auto">
          {m.role === 'user' ? m.text : markdown(m.text)}
        </div>
      )}
      {m.badge && <BadgeView b={m.badge} c={c} last={last} />}
      {m.progress !== undefined && (
        <div class="pg" role="progressbar" aria-label={t.uploading} aria-valuenow={m.progress}>
          {/* A CSSOM width, not a style attribute: allowed under a CSP without unsafe-inline. */}
          <i style={{ width: m.progress + '%' }} />
        </div>
      )}
      {m.pending === 'queued' && <div class="st">{t.queued}</div>}
      {m.pending === 'uncertain' && <div class="st">{t.uncertain}</div>}
      {votable && m.role !== 'user' && m.src !== 'l' && !m.streaming && <Feedback c={c} id={m.id} />}
    </div>
  );
}
