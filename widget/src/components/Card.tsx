/** Buttons and cards: the pieces that buttons, card, carousel and list badges share. */
import type { BadgeButton, BadgeCard } from '../../../shared/types.js';
import { httpUrl, safeUrl } from '../../../shared/badge-url.js';
import type { Ctx } from './ctx.js';

export const ext = { target: '_blank', rel: 'noopener noreferrer' } as const;

/** A postback button (sends its value as the user's message) or a link that opens in a new tab. */
export function Btn({ b, c }: { b: BadgeButton; c: Ctx }) {
  if (b.action !== 'link')
    return (
      <button type="button" class="bt" onClick={() => c.s.send(b.value)}>
        {b.label}
      </button>
    );
  // The BFF only passes safe URLs; checking again costs little and keeps a bad one from ever being a link.
  const href = safeUrl(b.value);
  return href ? (
    <a class="bt" href={href} {...ext}>
      {b.label}
      <span class="sr"> {c.t.newTab}</span>
    </a>
  ) : null;
}

/** Buttons stacked under a card or list item. */
export function Buttons({ list, c }: { list: BadgeButton[] | undefined; c: Ctx }) {
  return list?.length ? <div class="acts">{list.map((b, i) => <Btn key={i} b={b} c={c} />)}</div> : null;
}

/** A title, linked when it has a safe URL. */
export function Title({ text, url, c }: { text: string; url?: string; c: Ctx }) {
  const href = safeUrl(url);
  return (
    <strong>
      {href ? (
        <a class="tl" href={href} {...ext}>
          {text}
          <span class="sr"> {c.t.newTab}</span>
        </a>
      ) : (
        text
      )}
    </strong>
  );
}

/** A card: image, title (a link when it has a URL), subtitle and buttons. */
export function Card({ card, c }: { card: BadgeCard; c: Ctx }) {
  const img = httpUrl(card.imageUrl);
  return (
    <div class="cd">
      {img && <img src={img} alt="" loading="lazy" />}
      <div class="cb">
        <Title text={card.title} url={card.url} c={c} />
        {card.subtitle && <p>{card.subtitle}</p>}
      </div>
      <Buttons list={card.buttons} c={c} />
    </div>
  );
}

