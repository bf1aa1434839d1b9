/**
 * A signed-in user's conversations (title, the last message and who wrote it, when, state) and one
 * past conversation, read-only.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import type { ConversationSummary, LastMessage } from '../../../shared/types.js';
import { firstOfOperators } from '../authors.js';
import { textDir } from '../i18n.js';
import { whoOf } from './Author.js';
import type { Ctx } from '../ui/ctx.js';
import { MessageItem } from './MessageItem.js';
import { partStrings } from '../parts-strings.js';

/** Moves focus to the view's heading when the view opens, so screen readers announce it. */
function useHeadingFocus() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return heading;
}

function stateText(ctx: Ctx, state: ConversationSummary['state']): string {
  const strings = partStrings(ctx.strings);
  return state === 'archived' ? strings.stateEnded : state === 'escalated' ? strings.stateTeam : strings.stateOpen;
}

/**
 * When, as people say it, in the visitor's language (`Intl.RelativeTimeFormat`): "now", "5 minutes
 * ago", "3 hours ago" the same day, "yesterday", "3 days ago"; older, a short date ("28 Nov", with
 * the year when it is not this one). Days count by the calendar of the visitor's time zone.
 */
export function relativeDate(iso: string, locale: string, now = new Date()): string {
  const at = new Date(iso);
  // A time a little ahead (this clock behind the BFF's) is now.
  const seconds = Math.min(0, (+at - +now) / 1000);
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (seconds > -60) return relative.format(0, 'second');
  if (seconds > -3600) return relative.format(Math.trunc(seconds / 60), 'minute');
  const days = Math.round((+dayOf(at) - +dayOf(now)) / 864e5);
  if (days === 0) return relative.format(Math.trunc(seconds / 3600), 'hour');
  if (days > -7) return relative.format(days, 'day');
  return at.toLocaleDateString(locale, { day: 'numeric', month: 'short', ...(at.getFullYear() !== now.getFullYear() && { year: 'numeric' }) });
}

const dayOf = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());

/** `template` with each `{key}` of `values` put in as its own isolated run of text (`<bdi>`: a name or words in another direction stay whole). */
function filled(template: string, values: Record<string, ComponentChildren>) {
  return template.split(/\{(\w+)\}/).map((piece, i) => (i % 2 && piece in values ? <bdi>{values[piece]}</bdi> : piece));
}

/** "Juniper: Your parcel left today", "You: …": who wrote the last message (the bot's or the operator's name, or "you"), then its words, as text. */
function LastLine({ ctx, last }: { ctx: Ctx; last: LastMessage }) {
  const who = whoOf(ctx)({ role: last.author.kind, author: last.author });
  // The line runs in its words' direction, so that a cut one shows their start (an English answer in an Arabic panel too).
  return (
    <span class="convo-last" dir={textDir(last.text)}>
      {filled(partStrings(ctx.strings).lastSaid, { name: who.name, text: last.text })}
    </span>
  );
}

/** "Welcome back, Ada!" above the conversation a signed-in visitor came back to, until they write. */
export function WelcomeBack({ ctx }: { ctx: Ctx }) {
  const strings = partStrings(ctx.strings);
  const name = ctx.store.state.user.value?.name;
  return (
    <p class="banner welcome" role="status">
      {name ? filled(strings.welcomeBack, { name }) : strings.welcomeBackUnnamed}
    </p>
  );
}

/** The list of the user's conversations, newest first, with "New conversation". */
export function ConversationList({ ctx }: { ctx: Ctx }) {
  const strings = partStrings(ctx.strings);
  const { state, actions } = ctx.store;
  const heading = useHeadingFocus();
  const items = state.conversations.value;
  const now = new Date();
  return (
    <div class="conversations">
      <h3 ref={heading} tabIndex={-1}>
        {strings.yourConversations}
      </h3>
      <button type="button" class="primary" onClick={actions.newConversation}>
        {strings.newConversation}
      </button>
      {items && !items.length && <p class="muted">{strings.noConversations}</p>}
      <ul>
        {items?.map((item) => {
          // The last message may be newer than the list's own date (an answer the visitor has not replied to).
          const last = item.lastMessage?.at;
          const at = last && Date.parse(last) > Date.parse(item.updatedAt) ? last : item.updatedAt;
          return (
            <li key={item.sessionId}>
              <button type="button" onClick={() => actions.openConversation(item)}>
                <span class="convo-title" dir="auto">
                  {item.title}
                </span>
                {item.lastMessage && <LastLine ctx={ctx} last={item.lastMessage} />}
                <span class="muted">
                  <time dateTime={at} title={new Date(at).toLocaleString(ctx.locale, { dateStyle: 'full', timeStyle: 'short' })}>
                    {relativeDate(at, ctx.locale, now)}
                  </time>{' '}
                  · {stateText(ctx, item.state)}
                </span>
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** A past conversation with its history; nothing can be sent into it. */
export function PastConversation({ ctx }: { ctx: Ctx }) {
  const strings = partStrings(ctx.strings);
  const { state, actions } = ctx.store;
  const heading = useHeadingFocus();
  const past = state.past.value;
  if (!past) return null;
  const joined = firstOfOperators(past.messages, whoOf(ctx));
  return (
    <div class="conversations">
      <h3 ref={heading} tabIndex={-1} dir="auto">
        {past.summary.title}
      </h3>
      <p class="muted">{strings.readOnly}</p>
      <div class="log" role="log" aria-label={strings.log} tabIndex={0}>
        <div class="thread">
          {past.messages.map((m, i) => (
            <MessageItem key={m.id} m={m} ctx={ctx} last={false} prev={past.messages[i - 1]} joined={joined.has(m.id)} />
          ))}
        </div>
      </div>
      <button type="button" class="primary" onClick={actions.listConversations}>
        {strings.back}
      </button>
    </div>
  );
}
