/**
 * A carousel: the words before it, then its cards in a snapping scroller as wide as the thread.
 * Few conversations meet one, so it is drawn from the parts chunk (rare.ts).
 */
import type { BadgeOf } from '../../../shared/types.js';
import { Carousel } from './views/Carousel.js';
import type { BadgeProps, Renderer } from './kind.js';
import { cardText, Lead, lines } from './lead.js';

type B = BadgeOf<'carousel'>;

const View = ({ badge, ctx }: BadgeProps<B>) => (
  <>
    <Lead text={badge.text} ctx={ctx} />
    <Carousel cards={badge.cards} label={badge.text} ctx={ctx} />
  </>
);

const text = (badge: B) => lines([badge.text, ...badge.cards.map(cardText)], '\n\n');

const CSS = `
.msg:has(>.carousel){max-width:100%;align-self:stretch}
.carousel{align-self:stretch;min-width:0}
.track{display:flex;gap:10px;overflow-x:auto;scroll-snap-type:x mandatory;scroll-behavior:smooth;padding:2px 2px 8px;scrollbar-width:thin}
.track>*{scroll-snap-align:start;flex:none;display:flex}
.arrows{display:flex;gap:6px;justify-content:flex-end;align-items:center}.arrows .count{font-size:12px;color:var(--mu);margin-inline-end:auto}.arrows [aria-disabled=true]{cursor:default}.arrows [aria-disabled=true] svg{opacity:.4}
.arrows .icon{border:1px solid var(--bd);width:32px;height:32px}
[dir=rtl] .arrows svg{transform:scaleX(-1)}
`;

export default { View, text, CSS } satisfies Renderer<B>;
