/**
 * The kinds few conversations meet, drawn from the parts chunk (parts.ts) with their CSS, so the
 * chat does not carry them: index.tsx names each with `rare()`.
 */
import type { Badge } from '../../../shared/types.js';
import carousel from './carousel.js';
import type { BadgeProps, Renderer, Renderers } from './kind.js';
import file from './file.js';
import list from './list.js';

export const RARE_BADGES = { carousel, file, list } satisfies Partial<Renderers>;

/** Their CSS, joined to the parts chunk's. */
export const RARE_BADGE_CSS = Object.values(RARE_BADGES)
  .map((kind) => kind.CSS)
  .join('');

/** A rare kind's badge, drawn once the parts chunk is in (index.tsx's `rare()`). */
export function RareBadge(props: BadgeProps) {
  const { View } = RARE_BADGES[props.badge.type as keyof typeof RARE_BADGES] as Renderer<Badge>;
  return <View {...props} />;
}
