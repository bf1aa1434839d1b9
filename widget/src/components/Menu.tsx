/**
 * The items of the header's "More" menu (HeaderMenu.tsx draws its button): the transcript, full
 * height on a wide screen, sound. In the parts chunk: few visitors open it, and pointing at or
 * focusing the button fetches it. It opens with focus on its first item; arrows, Home and End move,
 * Escape closes it and gives focus back to the button, Tab closes it and moves on.
 */
import { useEffect, useRef } from 'preact/hooks';
import { partStrings } from '../parts-strings.js';
import type { Ctx } from '../ui/ctx.js';

export function Menu({ ctx, transcript, close }: { ctx: Ctx; transcript: () => void; close: (refocus: boolean) => void }) {
  const { prefs, state } = ctx.store;
  const strings = partStrings(ctx.strings);
  const list = useRef<HTMLDivElement>(null);
  const items = () => [...(list.current?.querySelectorAll<HTMLElement>('[role^=menuitem]') || [])];
  const focusAt = (i: number) => {
    const all = items();
    all[(i + all.length) % all.length]?.focus();
  };
  useEffect(() => focusAt(0), []);
  // Full height only means something for the floating panel on a wide screen (a phone's is full already).
  const expandable = !ctx.inline && !matchMedia('(max-width: 480px)').matches;
  const onKey = (e: KeyboardEvent) => {
    const i = items().indexOf((list.current!.getRootNode() as ShadowRoot).activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: i + 1, ArrowUp: i - 1, Home: 0, End: -1 };
    if (e.key in moves) {
      e.preventDefault();
      focusAt(moves[e.key]!);
    } else if (e.key === 'Escape') {
      e.stopPropagation(); // the menu closes, not the panel
      close(true);
    } else if (e.key === 'Tab') close(false);
  };
  const pick = (action: () => void) => () => {
    action();
    close(true);
  };
  return (
    <div ref={list} id="parley-menu" class="menu" role="menu" aria-label={strings.more} onKeyDown={onKey}>
      {state.messages.value.length > 0 && (
        <button type="button" role="menuitem" tabIndex={-1} onClick={pick(transcript)}>
          {strings.transcript}
        </button>
      )}
      {expandable && (
        <button type="button" role="menuitemcheckbox" aria-checked={prefs.expanded.value} tabIndex={-1} onClick={pick(prefs.toggleExpanded)}>
          {strings.expand}
        </button>
      )}
      <button type="button" role="menuitemcheckbox" aria-checked={prefs.sound.value} tabIndex={-1} onClick={pick(prefs.toggleSound)}>
        {strings.sound}
      </button>
    </div>
  );
}
