/** Rich elements (the BFF's parsed `Badge`) as accessible components. */
import type { Badge, BadgeListItem } from '../../../shared/types.js';
import { httpUrl } from '../../../shared/badge-url.js';
import { markdown } from '../markdown.js';
import { Btn, Buttons, Card, ext, Title } from './Card.js';
import { Carousel } from './Carousel.js';
import type { Ctx } from './ctx.js';
import { FILE, Icon } from './Icon.js';

function Item({ it, c }: { it: BadgeListItem; c: Ctx }) {
  const img = httpUrl(it.imageUrl);
  return (
    <li>
      {img && <img src={img} alt="" loading="lazy" />}
      <div>
        <Title text={it.title} url={it.url} c={c} />
        {it.subtitle && <p>{it.subtitle}</p>}
        <Buttons list={it.buttons} c={c} />
      </div>
    </li>
  );
}

function size(bytes?: number): string {
  if (!bytes) return '';
  const units = ['B', 'KB', 'MB', 'GB'];
  const i = Math.min(3, Math.floor(Math.log(bytes) / Math.log(1024)));
  return `${+(bytes / 1024 ** i).toFixed(i ? 1 : 0)} ${units[i]}`;
}

const Lead = ({ text }: { text?: string }) =>
  text ? (
    <div class="b" dir="auto">
      {markdown(text)}
    </div>
  ) : null;

/** One badge; quick replies show only while their message is the last one. */
export function BadgeView({ b, c, last }: { b: Badge; c: Ctx; last: boolean }) {
  switch (b.type) {
    case 'buttons':
      return (
        <>
          <Lead text={b.text} />
          <div class="bs">{b.buttons.map((x, i) => <Btn key={i} b={x} c={c} />)}</div>
        </>
      );
    case 'quick_replies':
      return (
        <>
          <Lead text={b.text} />
          {last && <div class="qr">{b.replies.map((x, i) => <Btn key={i} b={x} c={c} />)}</div>}
        </>
      );
    case 'card':
      return <Card card={b.card} c={c} />;
    case 'carousel':
      return (
        <>
          <Lead text={b.text} />
          <Carousel cards={b.cards} label={b.text} c={c} />
        </>
      );
    case 'list':
      return (
        <>
          <Lead text={b.text} />
          <ul class="ls">{b.items.map((it, i) => <Item key={i} it={it} c={c} />)}</ul>
        </>
      );
    case 'image': {
      const src = httpUrl(b.url);
      return src ? (
        <figure class="im">
          <img src={src} alt={b.alt || b.caption || ''} loading="lazy" />
          {b.caption && <figcaption>{b.caption}</figcaption>}
        </figure>
      ) : null;
    }
    case 'file': {
      const href = httpUrl(b.url);
      return href ? (
        <a class="fl" href={href} download={b.name} {...ext}>
          <Icon d={FILE} />
          <span>
            {b.name}
            <small>{size(b.size) || b.mimeType}</small>
          </span>
        </a>
      ) : null;
    }
    default:
      return <div class="b un">{b.summary}</div>;
  }
}
