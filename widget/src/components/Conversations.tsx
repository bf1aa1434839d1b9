/** A signed-in user's conversations (title, date, state) and one past conversation, read-only. */
import { useEffect, useRef } from 'preact/hooks';
import type { ConversationSummary } from '../../../shared/types.js';
import type { Ctx } from './ctx.js';
import { MessageItem } from './MessageItem.js';

/** Moves focus to the view's heading when the view opens, so screen readers announce it. */
function useHeadingFocus() {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return heading;
}

function stateText(c: Ctx, state: ConversationSummary['state']): string {
  return state === 'archived' ? c.t.stateEnded : state === 'escalated' ? c.t.stateTeam : c.t.stateOpen;
}

/** The list of the user's conversations, newest first, with "New conversation". */
export function ConversationList({ c }: { c: Ctx }) {
  const { s, t } = c;
  const heading = useHeadingFocus();
  const items = s.conversations.value;
  const date = (iso: string) => new Date(iso).toLocaleString(c.o.locale, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <div class="cv">
      <h3 ref={heading} tabIndex={-1}>
        {t.yourConversations}
      </h3>
      <button type="button" class="pb" onClick={s.newConversation}>
        {t.newConversation}
      </button>
      {items && !items.length && <p class="mu">{t.noConversations}</p>}
      <ul>
        {items?.map((item) => (
          <li key={item.sessionId}>
            <button type="button" onClick={() => s.openConversation(item)}>
              <span class="ct">{item.title}</span>
              <span class="mu">
                <time dateTime={item.updatedAt}>{date(item.updatedAt)}</time> · {stateText(c, item.state)}
              </span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A past conversation with its history; nothing can be sent into it. */
export function PastConversation({ c }: { c: Ctx }) {
  const { s, t } = c;
  const heading = useHeadingFocus();
  const past = s.past.value;
  if (!past) return null;
  return (
    <div class="cv">
      <h3 ref={heading} tabIndex={-1}>
        {past.summary.title}
      </h3>
      <p class="mu">{t.readOnly}</p>
      <div class="log" role="log" aria-label={t.log} tabIndex={0}>
        <div class="in">
          {past.messages.map((m, i) => (
            <MessageItem key={m.id} m={m} c={c} last={false} prev={past.messages[i - 1]} />
          ))}
        </div>
      </div>
      <button type="button" class="pb" onClick={s.listConversations}>
        {t.back}
      </button>
    </div>
  );
}
