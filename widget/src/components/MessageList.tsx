/** The conversation log: older-page button, greeting, starter questions, messages and the typing indicator. */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { firstOfOperators } from '../authors.js';
import { langOf, localized } from '../i18n.js';
import type { ChatMessage } from '../messages.js';
import { whoOf } from './Author.js';
import type { Ctx } from '../ui/ctx.js';
import { MessageItem } from './MessageItem.js';
import { votePlaces } from '../votable.js';
import { Starters } from './Starters.js';

/** The bot's first line: a proactive message (`Parley('show', text)`) in place of the greeting. Also the transcript's. */
export const greetingOf = ({ store, options, strings }: Ctx): string | undefined =>
  store.state.proactive.value ?? options.greeting ?? options.strings?.greeting ?? localized(store.state.config.value?.greeting, langOf(options.locale)) ?? strings.greeting;

/**
 * The scrolling message list. It follows the newest message while the reader is at the bottom,
 * also when images and cards grow it after a render; once they scroll up it stays put, and new
 * messages below show a "New messages" button that takes them down.
 */
export function MessageList({ ctx }: { ctx: Ctx }) {
  const { strings } = ctx;
  const { state, actions } = ctx.store;
  const list = state.messages.value;
  const votes = votePlaces(list, state.convo.value, state.handoff.value);
  const ref = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const lastTop = useRef(0);
  const before = useRef({ first: '', last: '', height: 0 });
  const [unseen, setUnseen] = useState(false);
  const greeting = greetingOf(ctx);
  // The greeting is the bot's first line: it opens the bot's group, so a bot answer right after it is not named again.
  const hello: ChatMessage | undefined = !state.hasMore.value && greeting ? { id: '', role: 'bot', text: greeting } : undefined;
  const joined = firstOfOperators(list, whoOf(ctx), state.hasMore.value);

  const toBottom = () => {
    const el = ref.current!;
    el.scrollTop = el.scrollHeight;
    lastTop.current = el.scrollTop;
    pinned.current = true;
    setUnseen(false);
  };
  const follow = () => {
    if (pinned.current && ref.current) toBottom();
  };
  // Images, fonts and badges can grow the list after a render, and what comes below it (the ended
  // notice, the rating, a form) can make the log itself shorter: stay at the bottom if pinned.
  useLayoutEffect(() => {
    const log = ref.current;
    const inner = log?.firstElementChild;
    if (!log || !inner || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(follow);
    ro.observe(inner);
    ro.observe(log);
    return () => ro.disconnect();
  }, []);
  useLayoutEffect(() => {
    const el = ref.current!;
    const first = list[0]?.id || '';
    const newest = list[list.length - 1];
    const last = newest?.clientId || newest?.id || '';
    const prev = before.current;
    // Older messages were put on top: keep what the reader was looking at in place.
    if (prev.first && first !== prev.first && list.some((m) => m.id === prev.first)) el.scrollTop += el.scrollHeight - prev.height;
    // The reader's own new message takes them to it, wherever they were.
    else if (last !== prev.last && newest?.src === 'l') toBottom();
    else if (last !== prev.last && prev.last && !pinned.current) setUnseen(true);
    else follow();
    before.current = { first, last, height: el.scrollHeight };
  });

  return (
    <div
      ref={ref}
      class="log"
      role="log"
      aria-live="polite"
      aria-label={strings.log}
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
        // Only the reader scrolling up unpins: content growing below (an image loading between our
        // scroll and this event) leaves scrollTop where it was and must not.
        if (atBottom) {
          pinned.current = true;
          setUnseen(false);
        } else if (el.scrollTop < lastTop.current - 1) pinned.current = false;
        lastTop.current = el.scrollTop;
      }}
    >
      <div class="thread">
        {state.hasMore.value ? (
          // aria-disabled, not disabled, while loading: a disabled button loses focus. When the last page is in,
          // the button goes and the log takes focus: the reader goes on reading upwards from there.
          <button
            type="button"
            class="older"
            aria-disabled={state.loadingOlder.value}
            onClick={() => void actions.loadOlder().then(() => !state.hasMore.value && ref.current?.focus({ preventScroll: true }))}
          >
            {strings.older}
          </button>
        ) : (
          hello && <MessageItem m={hello} ctx={ctx} last={false} />
        )}
        {list.length === 0 && <Starters ctx={ctx} />}
        {list.map((m, i) => (
          <MessageItem key={m.clientId || m.id} m={m} ctx={ctx} last={i === list.length - 1} vote={votes.get(m.id)} prev={list[i - 1] ?? hello} joined={joined.has(m.id)} />
        ))}
        {state.typing.value && (
          // The words inside too: many screen readers announce a live region's content, not its label.
          <div class="typing" role="status" aria-label={strings.typing}>
            <span class="sr-only">{strings.typing}</span>
            <i />
            <i />
            <i />
          </div>
        )}
        {unseen && (
          <button type="button" class="jump" onClick={toBottom}>
            {strings.newMessages}
          </button>
        )}
      </div>
    </div>
  );
}
