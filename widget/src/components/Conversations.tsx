/** A signed-in user's conversations (title, date, state) and one past conversation, read-only. */
import { useEffect, useRef } from 'preact/hooks';
import type { ConversationSummary } from '../../../shared/types.js';
import { firstOfOperators } from '../authors.js';
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

/** The list of the user's conversations, newest first, with "New conversation". */
export function ConversationList({ ctx }: { ctx: Ctx }) {
  const strings = partStrings(ctx.strings);
  const { state, actions } = ctx.store;
  const heading = useHeadingFocus();
  const items = state.conversations.value;
  const date = (iso: string) => new Date(iso).toLocaleString(ctx.locale, { dateStyle: 'medium', timeStyle: 'short' });
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
        {items?.map((item) => (
          <li key={item.sessionId}>
            <button type="button" onClick={() => actions.openConversation(item)}>
              <span class="convo-title" dir="auto">{item.title}</span>
              <span class="muted">
                <time dateTime={item.updatedAt}>{date(item.updatedAt)}</time> · {stateText(ctx, item.state)}
              </span>
            </button>
          </li>
        ))}
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
