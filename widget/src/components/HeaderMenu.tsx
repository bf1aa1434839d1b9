/**
 * The header's "More" menu button: the secondary actions (transcript, full height on desktop, sound)
 * sit in a menu, so the header keeps to one line in long languages on a 360 px phone. A menu button
 * (WAI-ARIA menu button pattern): Enter, Space or ArrowDown opens it on its first item; the items
 * and their keys are `Menu` (Menu.tsx, in the parts chunk, fetched when the button is pointed at or focused).
 */
import { useRef, useState } from 'preact/hooks';
import { fetchParts, Part } from '../ui/Part.js';
import type { Ctx } from '../ui/ctx.js';
import { Icon, MORE } from '../ui/Icon.js';

/** `transcript` saves the conversation as the panel shows it (its title and greeting, as the ended panel's button does). */
export function HeaderMenu({ ctx, transcript }: { ctx: Ctx; transcript: () => void }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) button.current?.focus();
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
        aria-label={ctx.strings.more}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls="parley-menu"
        onPointerEnter={fetchParts}
        onFocus={fetchParts}
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
      {open && <Part name="Menu" ctx={ctx} props={{ ctx, transcript, close }} />}
    </div>
  );
}
