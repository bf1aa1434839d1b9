/**
 * The lightbox of a `Zoomable` image: a modal `<dialog>` (the browser puts it above the page and
 * keeps Tab inside it), named after the image, closed by Escape, its close button or a click beside
 * the image; `onClose` puts focus back on the image's button.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import type { Ctx } from '../ui/ctx.js';
import { CLOSE, Icon } from '../ui/Icon.js';
import { partStrings } from '../parts-strings.js';

export function ZoomDialog({ src, name, alt, ctx, onClose }: { src: string; name: string; alt: string; ctx: Ctx; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useLayoutEffect(() => {
    const box = dialog.current!;
    if (box.showModal) box.showModal();
    else box.setAttribute('open', ''); // no <dialog> support: still shown, still closed by Escape
    box.querySelector('button')?.focus();
    return () => box.open && box.close?.();
  }, []);
  return (
    <dialog
      ref={dialog}
      class="lightbox"
      aria-label={name}
      // Its keys are its own: Escape must not close the chat panel too, arrows must not move a carousel behind.
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Escape') {
          e.preventDefault();
          onClose();
        }
      }}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={(e) => e.target === e.currentTarget && onClose()}
    >
      <img src={src} alt={alt || name} />
      <button type="button" class="icon" aria-label={partStrings(ctx.strings).closeImage} onClick={onClose}>
        <Icon d={CLOSE} />
      </button>
    </dialog>
  );
}
