/**
 * The proactive message (`Parley('show', text)`) in a bubble beside the launcher, in a live region so
 * that screen readers hear it appear: its text opens the chat, × dismisses it (focus goes to the
 * launcher). In the parts chunk: only a page that shows one needs it.
 */
import type { RefObject } from 'preact';
import type { Ctx } from '../ui/ctx.js';
import { CLOSE, Icon } from '../ui/Icon.js';

export function Proactive({ ctx, launcher }: { ctx: Ctx; launcher: RefObject<HTMLButtonElement | null> }) {
  const { state, actions } = ctx.store;
  return (
    <div class="proactive" role="status">
      <button type="button" class="proactive-text" dir="auto" onClick={() => actions.setOpen(true)}>
        {state.proactive.value}
      </button>
      <button
        type="button"
        class="icon"
        aria-label={ctx.strings.dismiss}
        onClick={() => {
          actions.dismiss();
          launcher.current?.focus();
        }}
      >
        <Icon d={CLOSE} />
      </button>
    </div>
  );
}
