/** The round button that opens and closes the floating panel, with the unread count. */
import type { Ref } from 'preact';
import { fill, localNumber } from '../i18n.js';
import type { Ctx } from '../ui/ctx.js';
import { CHAT, CLOSE, Icon } from '../ui/Icon.js';

/** The launcher; `onIntent` when it is pointed at or focused, before a press. */
export function Launcher({ ctx, btn, onIntent }: { ctx: Ctx; btn: Ref<HTMLButtonElement>; onIntent: () => void }) {
  const { strings } = ctx;
  const { state, actions } = ctx.store;
  const open = state.open.value;
  const n = state.unread.value;
  // In the language's digits, as every other number the widget writes.
  const count = n > 99 ? '99+' : localNumber(n, ctx.locale);
  return (
    <button
      ref={btn}
      type="button"
      class="launcher"
      aria-label={open ? strings.close : n ? `${strings.open}, ${fill(strings.unread, { n: count })}` : strings.open}
      aria-expanded={open}
      onPointerEnter={onIntent}
      onFocus={onIntent}
      onClick={() => actions.setOpen(!open)}
    >
      <Icon d={open ? CLOSE : CHAT} />
      {n > 0 && !open && (
        <span class="unread" aria-hidden="true">
          {count}
        </span>
      )}
    </button>
  );
}
