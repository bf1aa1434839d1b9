/** Cards in a horizontal, snapping scroller: touch, arrow keys, and previous/next buttons. */
import { useRef, useState } from 'preact/hooks';
import type { BadgeCard } from '../../../../shared/types.js';
import { fill, localNumber } from '../../i18n.js';
import { Card } from './Card.js';
import type { Ctx } from '../../ui/ctx.js';
import { Icon } from '../../ui/Icon.js';
import { NEXT, PREV } from '../../ui/part-icons.js';

/** A carousel of `cards`. */
export function Carousel({ cards, label, ctx }: { cards: BadgeCard[]; label?: string; ctx: Ctx }) {
  const ref = useRef<HTMLDivElement>(null);
  // The card in view, in reading order; set at once by the buttons and corrected by the scroller's
  // own position when it moves (swipes, arrow keys, smooth scrolling).
  const [at, setAt] = useState(0);
  const last = cards.length - 1;
  const total = localNumber(cards.length, ctx.locale);
  const stepOf = (el: HTMLElement | null) => ((el?.firstElementChild as HTMLElement | null)?.offsetWidth || 240) + 10;
  const logical = ctx.dir === 'rtl' ? -1 : 1;
  // `by` is in physical pixels direction (+1 = right); buttons mean "next in reading order".
  const go = (by: number) => {
    const el = ref.current;
    // No behavior here: the CSS says smooth, and the reduced-motion rule turns it off.
    el?.scrollBy({ left: by * stepOf(el) });
    setAt((i) => Math.min(last, Math.max(0, i + by * logical)));
  };
  const onScroll = () => {
    const el = ref.current;
    if (el) setAt(Math.min(last, Math.max(0, Math.round(Math.abs(el.scrollLeft) / stepOf(el)))));
  };
  // aria-disabled, not disabled: a button that becomes disabled under focus would drop focus to <body>.
  const step = (by: number, off: boolean) => () => {
    if (!off) go(by * logical);
  };
  // Tab onto a card's link or button: that card comes fully into view and the count names it. The
  // browser's own scrolling to a focused element leaves it cut at the edge of a snapping track.
  const onFocusIn = (e: FocusEvent) => {
    const track = ref.current;
    const slide = [...(track?.children ?? [])].findIndex((s) => s !== e.target && s.contains(e.target as Node));
    if (!track || slide < 0) return;
    // The track alone scrolls (scrollIntoView would move the panel and the page too), to the card's start edge.
    const card = track.children[slide]!.getBoundingClientRect();
    const box = track.getBoundingClientRect();
    track.scrollBy({ left: ctx.dir === 'rtl' ? card.right - box.right : card.left - box.left });
    setAt(slide);
  };
  // Arrows move one card; Home and End go to the first and the last (in reading order, so in
  // physical steps `at` back or `last - at` on).
  const onKey = (e: KeyboardEvent) => {
    const { key } = e;
    const by = key === 'ArrowRight' ? 1 : key === 'ArrowLeft' ? -1 : key === 'Home' ? -at * logical : key === 'End' ? (last - at) * logical : 0;
    if (!by) return;
    e.preventDefault();
    go(by);
  };
  return (
    <div class="carousel" role="group" aria-roledescription={ctx.strings.carousel} aria-label={label || ctx.strings.title}>
      <div class="track" ref={ref} tabIndex={0} onKeyDown={onKey} onScroll={onScroll} onFocusIn={onFocusIn}>
        {cards.map((card, i) => (
          <div key={i} role="group" aria-roledescription={ctx.strings.slideRole} aria-label={fill(ctx.strings.slide, { i: localNumber(i + 1, ctx.locale), n: total })}>
            <Card card={card} ctx={ctx} />
          </div>
        ))}
      </div>
      {cards.length > 1 && (
        <div class="arrows">
          {/* Said when it changes (the buttons, a swipe, Tab onto a card), so a screen reader hears where it is. */}
          <span class="count" aria-live="polite">{fill(ctx.strings.slide, { i: localNumber(at + 1, ctx.locale), n: total })}</span>
          <button type="button" class="icon" aria-label={ctx.strings.prev} aria-disabled={at === 0} onClick={step(-1, at === 0)}>
            <Icon d={PREV} />
          </button>
          <button type="button" class="icon" aria-label={ctx.strings.next} aria-disabled={at === last} onClick={step(1, at === last)}>
            <Icon d={NEXT} />
          </button>
        </div>
      )}
    </div>
  );
}
