/** The conversation log: older-page button, greeting, messages and the typing indicator. */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { langOf, localized } from '../i18n.js';
import { markdown } from '../markdown.js';
import type { Ctx } from './ctx.js';
import { MessageItem } from './MessageItem.js';

/** The scrolling message list; it stays pinned to the newest message unless the reader scrolled up. */
export function MessageList({ c }: { c: Ctx }) {
  const { s, t } = c;
  const list = s.messages.value;
  const ref = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const before = useRef({ first: '', height: 0 });
  const greeting = c.o.greeting ?? c.o.strings?.greeting ?? localized(s.config.value?.greeting, langOf(c.o.locale)) ?? t.greeting;

  const follow = () => {
    const el = ref.current;
    if (el && pinned.current) el.scrollTop = el.scrollHeight;
  };
  // Images, fonts and badges can grow the list after a render: stay at the bottom if pinned.
  useLayoutEffect(() => {
    const inner = ref.current?.firstElementChild;
    if (!inner || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(follow);
    ro.observe(inner);
    return () => ro.disconnect();
  }, []);
  useLayoutEffect(() => {
    const el = ref.current!;
    const first = list[0]?.id || '';
    const prev = before.current;
    // Older messages were put on top: keep what the reader was looking at in place.
    if (prev.first && first !== prev.first && list.some((m) => m.id === prev.first)) el.scrollTop += el.scrollHeight - prev.height;
    else follow();
    before.current = { first, height: el.scrollHeight };
  });

  return (
    <div
      ref={ref}
      class="log"
      role="log"
      aria-live="polite"
      aria-label={t.log}
      tabIndex={0}
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
      }}
    >
      <div class="in">
        {s.hasMore.value ? (
          <button type="button" class="old" disabled={s.loadingOlder.value} onClick={s.loadOlder}>
            {t.older}
          </button>
        ) : (
          greeting && (
            <div class="m bot">
              <div class="b">{markdown(greeting)}</div>
            </div>
          )
        )}
        {list.map((m, i) => (
          <MessageItem key={m.clientId || m.id} m={m} c={c} last={i === list.length - 1} />
        ))}
        {s.typing.value && (
          <div class="ty" role="status" aria-label={t.typing}>
            <i />
            <i />
            <i />
          </div>
        )}
      </div>
    </div>
  );
}
