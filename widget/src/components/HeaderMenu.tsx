/**
 * The header's "More" menu: the secondary actions (transcript, full height on desktop, sound), so the
 * header keeps to one line in long languages on a 360 px phone. A menu button (WAI-ARIA menu button
 * pattern): Enter, Space or ArrowDown opens it on its first item, arrows/Home/End move, Escape closes
 * it and gives focus back to the button, Tab closes it and moves on.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Ctx } from './ctx.js';
import { Icon, MORE } from './Icon.js';

/** `transcript` saves the conversation as the panel shows it (its title and greeting, as the ended panel's button does). */
export function HeaderMenu({ ctx, transcript }: { ctx: Ctx; transcript: () => void }) {
  const { store, strings } = ctx;
  const { state } = ctx.store;
  const { prefs } = store;
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const items = () => [...(list.current?.querySelectorAll<HTMLElement>('[role^=menuitem]') || [])];
  const focusAt = (i: number) => {
    const all = items();
    all[(i + all.length) % all.length]?.focus();
  };
  useEffect(() => {
    if (open) focusAt(0);
  }, [open]);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
  };
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
    <div
      class="menu-wrap"
      onFocusOut={(e) => {
        // Focus went elsewhere (a click outside): the menu closes without pulling focus back.
        if (open && !(e.currentTarget as HTMLElement).contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={button}
        type="button"
        class="icon"
        aria-label={strings.more}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="parley-menu"
        onClick={() => setOpen(!open)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Icon d={MORE} />
      </button>
      {open && (
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
      )}
    </div>
  );
}
