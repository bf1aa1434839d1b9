/** The round button that opens and closes the floating panel, with the unread count. */
import type { Ref } from 'preact';
import { fill } from '../i18n.js';
import type { Ctx } from './ctx.js';
import { CHAT, CLOSE, Icon } from './Icon.js';

/** The launcher. */
export function Launcher({ c, btn }: { c: Ctx; btn: Ref<HTMLButtonElement> }) {
  const { s, t } = c;
  const open = s.open.value;
  const n = s.unread.value;
  return (
    <button
      ref={btn}
      type="button"
      class="l"
      aria-label={open ? t.close : n ? `${t.open}, ${fill(t.unread, { n })}` : t.open}
      aria-expanded={open}
      onClick={() => s.setOpen(!open)}
    >
      <Icon d={open ? CLOSE : CHAT} />
      {n > 0 && !open && (
        <span class="n" aria-hidden="true">
          {n > 99 ? '99+' : n}
        </span>
      )}
    </button>
  );
}
