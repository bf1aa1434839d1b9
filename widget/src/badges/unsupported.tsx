/** What the parser could not read: its plain-text summary, greyed. JSON is never shown raw. */
import type { BadgeOf } from '../../../shared/types.js';
import type { BadgeProps, Renderer } from './kind.js';

type B = BadgeOf<'unsupported'>;

const View = ({ badge }: BadgeProps<B>) => <div class="bubble unsupported">{badge.summary}</div>;

const text = (badge: B) => badge.summary;

const CSS = `
.unsupported{color:var(--mu);font-style:italic}
`;

export default { View, text, CSS } satisfies Renderer<B>;
