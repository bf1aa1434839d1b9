/** A file: a download link with its name and its size (or type). Never itself the answer thumbs vote on: it follows one. */
import type { BadgeOf } from '../../../shared/types.js';
import { httpUrl } from '../../../shared/badge-url.js';
import { ext } from './views/Card.js';
import { Icon } from '../ui/Icon.js';
import { FILE } from '../ui/part-icons.js';
import { fileSize } from '../i18n.js';
import type { BadgeProps, Renderer } from './kind.js';

type B = BadgeOf<'file'>;

function View({ badge, ctx }: BadgeProps<B>) {
  const href = httpUrl(badge.url);
  return href ? (
    <a class="file" href={href} download={badge.name} {...ext}>
      <Icon d={FILE} />
      <span dir="auto">
        {badge.name}
        <small dir="auto">{badge.size ? fileSize(badge.size, ctx.locale) : badge.mimeType}</small>
      </span>
    </a>
  ) : null;
}

const text = (badge: B) => `${badge.name} (${badge.url})`;

const CSS = `
[dir=rtl] .file svg{transform:scaleX(-1)}
.file{border:1px solid var(--bd);border-radius:14px;background:var(--bg);overflow:hidden}
.file{display:flex;align-items:center;gap:10px;padding:10px 14px;color:var(--fg);text-decoration:none}
.file svg{color:var(--ac);width:24px;height:24px}
.file small{display:block;color:var(--mu)}
`;

export default { View, text, CSS, answer: false } satisfies Renderer<B>;
