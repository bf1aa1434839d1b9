/** Buttons: the words before them, then a column of postback and link buttons. */
import type { BadgeOf } from '../../../shared/types.js';
import { Btn } from './views/Card.js';
import type { BadgeProps, Renderer } from './kind.js';
import { labels, Lead, lines } from './lead.js';

type B = BadgeOf<'buttons'>;

const View = ({ badge, ctx }: BadgeProps<B>) => (
  <>
    <Lead text={badge.text} ctx={ctx} />
    <div class="buttons">{badge.buttons.map((x, i) => <Btn key={i} button={x} ctx={ctx} />)}</div>
  </>
);

const text = (badge: B) => lines([badge.text, labels(badge.buttons)]);

const CSS = `
.buttons{display:flex;flex-direction:column;gap:6px}
`;

export default { View, text, CSS } satisfies Renderer<B>;
