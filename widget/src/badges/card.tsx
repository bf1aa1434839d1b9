/** A card: image, title (a link when it has a URL), subtitle and buttons. */
import type { BadgeOf } from '../../../shared/types.js';
import { Card } from './views/Card.js';
import type { BadgeProps, Renderer } from './kind.js';
import { cardText } from './lead.js';

type B = BadgeOf<'card'>;

const View = ({ badge, ctx }: BadgeProps<B>) => <Card card={badge.card} ctx={ctx} />;

const text = (badge: B) => cardText(badge.card);

export default { View, text } satisfies Renderer<B>;
