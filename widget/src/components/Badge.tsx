/** Rich elements (the BFF's parsed `Badge`) as accessible components. */
import type { Badge, BadgeListItem } from '../../../shared/types.js';
import { httpUrl } from '../../../shared/badge-url.js';
import { fileSize } from '../i18n.js';
import { markdown } from '../markdown.js';
import { Btn, Buttons, Card, ext, Title } from './Card.js';
import { Carousel } from './Carousel.js';
import type { Ctx } from './ctx.js';
import { FILE, Icon } from './Icon.js';
import { Zoomable } from './Lightbox.js';

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

const Lead = ({ text, ctx }: { text?: string; ctx: Ctx }) =>
  text ? (
    <div class="bubble" dir="auto">
      {markdown(text, ctx.strings)}
    </div>
  ) : null;

/** One badge; quick replies show only while their message is the last one. */
export function BadgeView({ badge, ctx, last }: { badge: Badge; ctx: Ctx; last: boolean }) {
  switch (badge.type) {
    case 'buttons':
      return (
        <>
          <Lead text={badge.text} ctx={ctx} />
          <div class="buttons">{badge.buttons.map((x, i) => <Btn key={i} button={x} ctx={ctx} />)}</div>
        </>
      );
    case 'quick_replies':
      return (
        <>
          <Lead text={badge.text} ctx={ctx} />
          {last && <div class="replies">{badge.replies.map((x, i) => <Btn key={i} button={x} ctx={ctx} sendsLabel />)}</div>}
        </>
      );
    case 'card':
      return <Card card={badge.card} ctx={ctx} />;
    case 'carousel':
      return (
        <>
          <Lead text={badge.text} ctx={ctx} />
          <Carousel cards={badge.cards} label={badge.text} ctx={ctx} />
        </>
      );
    case 'list':
      return (
        <>
          <Lead text={badge.text} ctx={ctx} />
          <ul class="list">{badge.items.map((it, i) => <Item key={i} it={it} ctx={ctx} />)}</ul>
        </>
      );
    case 'image': {
      const src = httpUrl(badge.url);
      return src ? (
        <figure class="image">
          <Zoomable src={src} name={badge.alt || badge.caption || ''} alt={badge.alt} ctx={ctx} />
          {badge.caption && <figcaption dir="auto">{badge.caption}</figcaption>}
        </figure>
      ) : null;
    }
    case 'file': {
      const href = httpUrl(badge.url);
      return href ? (
        <a class="file" href={href} download={badge.name} {...ext}>
          <Icon d={FILE} />
          <span dir="auto">
            {badge.name}
            <small dir="auto">{badge.size ? fileSize(badge.size, ctx.locale) : badge.mimeType}</small>
          </span>
        </a>
      ) : null;
    }
    default:
      return <div class="bubble unsupported">{badge.summary}</div>;
  }
}
