/** Quick replies: the words before them, then a row of replies while their message is the last one; a reply sends its label. */
import type { BadgeOf } from '../../../shared/types.js';
import { Btn } from './views/Card.js';
import type { BadgeProps, Renderer } from './kind.js';
import { labels, Lead, lines } from './lead.js';

type B = BadgeOf<'quick_replies'>;

const View = ({ badge, ctx, last }: BadgeProps<B>) => (
  <>
    <Lead text={badge.text} ctx={ctx} />
    {last && <div class="replies">{badge.replies.map((x, i) => <Btn key={i} button={x} ctx={ctx} sendsLabel />)}</div>}
  </>
);

const text = (badge: B) => lines([badge.text, labels(badge.replies)]);

const CSS = `
.replies{display:flex;gap:6px;flex-flow:row wrap;justify-content:flex-end;align-self:flex-end}
`;

export default { View, text, CSS } satisfies Renderer<B>;
