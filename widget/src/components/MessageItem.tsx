/** One message: its time, who wrote it, its text (Markdown for the agent's side), its badge and the vote on an answer. */
import { startsGroup } from '../authors.js';
import { BadgeView } from '../badges/index.js';
import { markdown } from '../markdown.js';
import { attachmentsOf, type ChatMessage } from '../messages.js';
import { Part } from '../ui/Part.js';
import { unbroken } from '../unbroken.js';
import { formatTime, startsRun } from '../time.js';
import { GroupHeader, Joined, whoOf } from './Author.js';
import type { Ctx } from '../ui/ctx.js';
import { Feedback } from './Feedback.js';

/**
 * A message bubble; `last` tells quick replies whether they are still current. Every message has
 * its `<time>`; the first of a group by one author (`prev` by someone else) and the first of a run
 * (not within minutes of `prev`) show it, so the visitor sees when each answer came and from whom;
 * the others say it to screen readers. The first of a group names its author; `joined` puts the
 * "joined the conversation" line before an operator's first message.
 */
export function MessageItem({ m, ctx, last, prev, vote, joined }: { m: ChatMessage; ctx: Ctx; last: boolean; prev?: ChatMessage; vote?: string; joined?: boolean }) {
  const { strings } = ctx;
  const author = whoOf(ctx);
  const who = author(m);
  const first = startsGroup(who, prev && author(prev));
  const run = m.createdAt && (first || startsRun(m.createdAt, prev?.createdAt));
  const named = first && who.kind !== 'user';
  // A visitor's files: the text before the "📎 names" line in the bubble, the files as attachments under it.
  const sent = m.role === 'user' && m.text ? attachmentsOf(m.text) : { text: m.text, names: [] };
  const time = m.createdAt && (
    // dir="auto" isolates the time: "2:28 AM" in an English time stays so in a right-to-left panel, not "AM 2:28".
    <time dir="auto" class={run ? 'time' : 'sr-only'} dateTime={m.createdAt} title={formatTime(m.createdAt, ctx.locale, true)}>
      {formatTime(m.createdAt, ctx.locale)}
    </time>
  );
  return (
    <>
      {joined && <Joined who={who} ctx={ctx} />}
      <div class={`msg ${m.role}${first ? '' : ' more'}`}>
        {/* A named group's first message has its time beside the name; otherwise above the bubble. */}
        {named ? <GroupHeader who={who} ctx={ctx} time={time} /> : time}
        {first && !named && <GroupHeader who={who} ctx={ctx} />}
        {/* dir=auto: each message reads in its own direction, so English in a right-to-left widget stays "Hello." */}
        {sent.text && (
          <div class="bubble" dir="auto">
            {m.role === 'user' ? unbroken(sent.text) : markdown(sent.text, strings, m.streaming)}
          </div>
        )}
        {sent.names.length > 0 && (
          <Part name="Attachments" props={{ names: sent.names, files: m.clientId ? ctx.store.state.sentFiles.value.get(m.clientId) : undefined, ctx }} ctx={ctx} />
        )}
        {m.badge && <BadgeView badge={m.badge} ctx={ctx} last={last} />}
        {/* Shown only when sending takes a while (styles.ts): a quick send does not flash it. */}
        {m.pending === 'sending' && <div class="status sending">{strings.sending}</div>}
        {m.pending === 'queued' && <div class="status">{strings.queued}</div>}
        {m.pending === 'uncertain' && <div class="status">{strings.uncertain}</div>}
        {m.stopped && <div class="status">{strings.stopped}</div>}
        {/* Thumbs for the turn's answer (`vote`), under its last message (votable.ts). */}
        {vote && !m.streaming && <Feedback ctx={ctx} id={vote} />}
      </div>
    </>
  );
}
