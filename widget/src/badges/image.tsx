/** An image: shown small (it opens full size in the lightbox), with its caption under it. */
import type { BadgeOf } from '../../../shared/types.js';
import { httpUrl } from '../../../shared/badge-url.js';
import { Zoomable } from './views/Lightbox.js';
import type { BadgeProps, Renderer } from './kind.js';
import { lines } from './lead.js';

type B = BadgeOf<'image'>;

function View({ badge, ctx }: BadgeProps<B>) {
  const src = httpUrl(badge.url);
  return src ? (
    <figure class="image">
      <Zoomable src={src} name={badge.alt || badge.caption || ''} alt={badge.alt} ctx={ctx} />
      {badge.caption && <figcaption dir="auto">{badge.caption}</figcaption>}
    </figure>
  ) : null;
}

/** Its alt text and caption, then its address. */
const text = (badge: B) => lines([lines([badge.alt, badge.caption], ': '), badge.url]);

const CSS = `
.image{margin:0;width:280px;max-width:100%}
.image img{display:block;width:100%;height:auto;border-radius:14px;background:var(--bb)}
.image figcaption{font-size:12px;color:var(--mu);margin:4px 4px 0}
.image .zoom{width:100%}
`;

export default { View, text, CSS } satisfies Renderer<B>;
