/**
 * An image that opens full size in a lightbox: a modal `<dialog>` (the browser puts it above the page
 * and keeps Tab inside it), named after the image, closed by Escape, its close button or a click
 * beside the image. Focus goes back to the image's button, never to `<body>`.
 */
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { fill } from '../i18n.js';
import type { Ctx } from './ctx.js';
import { CLOSE, Icon } from './Icon.js';

/** `src` shown small as a button; `name` says what it shows (alt text or the card's title). */
export function Zoomable({ src, name, alt = '', ctx }: { src: string; name: string; alt?: string; ctx: Ctx }) {
  const { strings } = ctx;
  const button = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);
  useLayoutEffect(() => {
    const box = dialog.current;
    if (!open || !box || box.open) return;
    if (box.showModal) box.showModal();
    else box.setAttribute('open', ''); // no <dialog> support: still shown, still closed by Escape
    box.querySelector('button')?.focus();
  }, [open]);
  const close = () => {
    if (dialog.current?.open) dialog.current.close?.();
    setOpen(false);
    button.current?.focus();
  };
  return (
    <>
      <button type="button" class="zoom" ref={button} aria-haspopup="dialog" aria-label={fill(strings.zoom, { name }).replace(/\s*:\s*$/, '')} onClick={() => setOpen(true)}>
        <img src={src} alt="" loading="lazy" />
      </button>
      {open && (
        <dialog
          ref={dialog}
          class="lightbox"
          aria-label={name}
          // Its keys are its own: Escape must not close the chat panel too, arrows must not move a carousel behind.
          onKeyDown={(e) => {
            e.stopPropagation();
            if (e.key === 'Escape') {
              e.preventDefault();
              close();
            }
          }}
          onCancel={(e) => {
            e.preventDefault();
            close();
          }}
          onClick={(e) => e.target === e.currentTarget && close()}
        >
          <img src={src} alt={alt || name} />
          <button type="button" class="icon" aria-label={strings.closeImage} onClick={close}>
            <Icon d={CLOSE} />
          </button>
        </dialog>
      )}
    </>
  );
}
