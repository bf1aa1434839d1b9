/**
 * Every badge kind's renderer, by kind: one file a kind in this folder. The map is typed over the
 * `Badge` union (shared/badge-kinds.ts) with no default, so a kind without a renderer fails to
 * compile. A kind few conversations meet is drawn from the parts chunk: `rare()` here, its
 * renderer in rare.ts.
 */
import type { Badge, BadgeOf } from '../../../shared/types.js';
import { loadedParts, Part } from '../ui/Part.js';
import buttons from './buttons.js';
import card from './card.js';
import image from './image.js';
import type { BadgeProps, Renderer, Renderers } from './kind.js';
import quick_replies from './quick_replies.js';
import type { RARE_BADGES } from './rare.js';
import unsupported from './unsupported.js';

type Rare = keyof typeof RARE_BADGES;

/**
 * A kind drawn from the parts chunk: fetched when the first one is about to show; its text is the
 * chunk's (the transcript is there too). `answer` is said here, as the chat decides on thumbs before the chunk comes.
 */
const rare = <K extends Rare>(kind: K, answer?: false): Renderer<BadgeOf<K>> => ({
  View: (props) => <Part name="RareBadge" props={props as BadgeProps} ctx={props.ctx} />,
  text: (badge) => (loadedParts().RARE_BADGES[kind] as Renderer<Badge>).text(badge),
  ...(answer === false && { answer }),
});

export const BADGES: Renderers = {
  buttons,
  quick_replies,
  card,
  carousel: rare('carousel'),
  list: rare('list'),
  image,
  file: rare('file', false),
  unsupported,
};

/** The CSS of the kinds the chat draws itself (rare.ts has the others'). */
export const BADGE_CSS = Object.values(BADGES)
  .map((kind) => kind.CSS ?? '')
  .join('');

/** The renderer of `badge`'s kind. */
export const rendererOf = (badge: Badge) => BADGES[badge.type] as Renderer<Badge>;

/** One badge, drawn by its kind's renderer. */
export function BadgeView(props: BadgeProps) {
  const { View } = rendererOf(props.badge);
  return <View {...props} />;
}

/** A badge in words, for the transcript file. */
export const badgeText = (badge: Badge) => rendererOf(badge).text(badge);
