/** Cards in a horizontal, snapping scroller: touch, arrow keys, and previous/next buttons. */
import { useRef } from 'preact/hooks';
import type { BadgeCard } from '../../../shared/types.js';
import { fill } from '../i18n.js';
import { Card } from './Card.js';
import type { Ctx } from './ctx.js';
import { Icon, NEXT, PREV } from './Icon.js';

/** A carousel of `cards`. */
export function Carousel({ cards, label, ctx }: { cards: BadgeCard[]; label?: string; ctx: Ctx }) {
  const ref = useRef<HTMLDivElement>(null);
  // `by` is in physical pixels direction (+1 = right); buttons mean "next in reading order".
  const go = (by: number) => {
    const el = ref.current;
    const step = ((el?.firstElementChild as HTMLElement | null)?.offsetWidth || 240) + 10;
    // No behavior here: the CSS says smooth, and the reduced-motion rule turns it off.
    el?.scrollBy({ left: by * step });
  };
  const logical = ctx.dir === 'rtl' ? -1 : 1;
  const onKey = (e: KeyboardEvent) => {
    const by = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!by) return;
    e.preventDefault();
    go(by);
  };
  return (
    <div class="carousel" role="group" aria-roledescription={ctx.strings.carousel} aria-label={label || ctx.strings.title}>
      <div class="track" ref={ref} tabIndex={0} onKeyDown={onKey}>
        {cards.map((card, i) => (
          <div key={i} role="group" aria-roledescription={ctx.strings.slideRole} aria-label={fill(ctx.strings.slide, { i: i + 1, n: cards.length })}>
            <Card card={card} ctx={ctx} />
          </div>
        ))}
      </div>
      {cards.length > 1 && (
        <div class="arrows">
          <button type="button" class="icon" aria-label={ctx.strings.prev} onClick={() => go(-logical)}>
            <Icon d={PREV} />
          </button>
          <button type="button" class="icon" aria-label={ctx.strings.next} onClick={() => go(logical)}>
            <Icon d={NEXT} />
          </button>
        </div>
      )}
    </div>
  );
}
