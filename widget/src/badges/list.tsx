/**
 * A list: the words before it, then rows of title, subtitle, image and buttons. Few conversations
 * meet one, so it is drawn from the parts chunk (rare.ts).
 */
import type { BadgeListItem, BadgeOf } from '../../../shared/types.js';
import { httpUrl } from '../../../shared/badge-url.js';
import { Buttons, Title } from './views/Card.js';
import type { Ctx } from '../ui/ctx.js';
import { Zoomable } from './views/Lightbox.js';
import type { BadgeProps, Renderer } from './kind.js';
import { cardText, Lead, lines } from './lead.js';

type B = BadgeOf<'list'>;

function Item({ it, ctx }: { it: BadgeListItem; ctx: Ctx }) {
  const img = httpUrl(it.imageUrl);
  return (
    <li>
      {img && <Zoomable src={img} name={it.title} ctx={ctx} />}
      <div>
        <Title text={it.title} url={it.url} ctx={ctx} />
        {it.subtitle && <p dir="auto">{it.subtitle}</p>}
        <Buttons list={it.buttons} ctx={ctx} />
      </div>
    </li>
  );
}

const View = ({ badge, ctx }: BadgeProps<B>) => (
  <>
    <Lead text={badge.text} ctx={ctx} />
    <ul class="list">{badge.items.map((it, i) => <Item key={i} it={it} ctx={ctx} />)}</ul>
  </>
);

const text = (badge: B) => lines([badge.text, ...badge.items.map(cardText)], '\n\n');

const CSS = `
.list{border:1px solid var(--bd);border-radius:14px;background:var(--bg);overflow:hidden}
.list p{margin:2px 0 0;color:var(--mu);font-size:13px}
.list strong{display:block}
.list{list-style:none;margin:0;padding:0;width:100%}
.list li{display:flex;gap:10px;padding:10px 12px;border-top:1px solid var(--bd)}
.list li:first-child{border:0}
.list img{width:48px;height:48px;border-radius:8px;object-fit:cover}
`;

export default { View, text, CSS } satisfies Renderer<B>;
