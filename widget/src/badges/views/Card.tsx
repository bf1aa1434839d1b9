/**
 * Buttons and cards: the pieces that buttons, card, carousel and list badges share. Their texts are
 * the service's, in any language: each takes its own direction (`dir="auto"`), so an English label
 * in an Arabic chat reads "Is it in stock?", not "?Is it in stock".
 */
import type { BadgeButton, BadgeCard } from '../../../../shared/types.js';
import { httpUrl, safeUrl } from '../../../../shared/badge-url.js';
import type { Ctx } from '../../ui/ctx.js';
import { Zoomable } from './Lightbox.js';

export const ext = { target: '_blank', rel: 'noopener noreferrer' } as const;

/**
 * A postback button (sends its value as the user's message; a quick reply, `sendsLabel`, sends the label the
 * visitor chose) or a link that opens in a new tab. While a person has the conversation a tap sends the label:
 * the person reads the visitor's choice ("Track my order"), never a value meant for a bot ("ORDER_STATUS").
 * Once the conversation ended it is disabled ("Start a new conversation" is the way on, not a button that
 * silently leaves the thread behind).
 */
export function Btn({ button, ctx, sendsLabel }: { button: BadgeButton; ctx: Ctx; sendsLabel?: boolean }) {
  if (button.action !== 'link')
    return (
      <button
        type="button"
        class="btn"
        dir="auto"
        disabled={ctx.store.state.convo.value === 'archived'}
        onClick={(e) => {
          // A quick reply goes away once chosen: focus moves to the composer first (the panel on touch screens, where
          // the keyboard would cover the conversation), never to <body>.
          const panel = e.currentTarget.closest<HTMLElement>('.panel');
          (matchMedia('(pointer: coarse)').matches ? panel : panel?.querySelector('textarea') || panel)?.focus();
          const toPerson = ctx.store.state.convo.value === 'escalated';
          void ctx.store.actions.send(sendsLabel || toPerson ? button.label : button.value);
        }}
      >
        {button.label}
      </button>
    );
  // The BFF only passes safe URLs; checking again costs little and keeps a bad one from ever being a link.
  const href = safeUrl(button.value);
  return href ? (
    <a class="btn" dir="auto" href={href} {...ext}>
      {button.label}
      <span class="sr-only"> {ctx.strings.newTab}</span>
    </a>
  ) : null;
}

/** Buttons stacked under a card or list item. */
export function Buttons({ list, ctx }: { list: BadgeButton[] | undefined; ctx: Ctx }) {
  return list?.length ? <div class="actions">{list.map((button, i) => <Btn key={i} button={button} ctx={ctx} />)}</div> : null;
}

/** A title, linked when it has a safe URL. */
export function Title({ text, url, ctx }: { text: string; url?: string; ctx: Ctx }) {
  const href = safeUrl(url);
  return (
    <strong dir="auto">
      {href ? (
        <a class="card-title" href={href} {...ext}>
          {text}
          <span class="sr-only"> {ctx.strings.newTab}</span>
        </a>
      ) : (
        text
      )}
    </strong>
  );
}

/** A card: image, title (a link when it has a URL), subtitle and buttons. */
export function Card({ card, ctx }: { card: BadgeCard; ctx: Ctx }) {
  const img = httpUrl(card.imageUrl);
  return (
    <div class="card">
      {img && <Zoomable src={img} name={card.title} ctx={ctx} />}
      <div class="card-body">
        <Title text={card.title} url={card.url} ctx={ctx} />
        {card.subtitle && <p dir="auto">{card.subtitle}</p>}
      </div>
      <Buttons list={card.buttons} ctx={ctx} />
    </div>
  );
}

