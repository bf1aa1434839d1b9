/** What the parser could not read: its plain-text summary, greyed. JSON is never shown raw. */
import type { BadgeOf } from '../../../shared/types.js';
import type { BadgeProps } from './kind.js';

type B = BadgeOf<'unsupported'>;

export const View = ({ badge }: BadgeProps<B>) => <div class="bubble unsupported">{badge.summary}</div>;

export const text = (badge: B) => badge.summary;

export const CSS = `
.unsupported{color:var(--mu);font-style:italic}
`;
