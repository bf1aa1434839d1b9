/**
 * An image that opens full size in a lightbox (ZoomDialog, fetched with the chat's other rarely
 * needed parts when the visitor points at or focuses the image). Focus goes back to the image's
 * button, never to `<body>`.
 */
import { useRef, useState } from 'preact/hooks';
import { fill } from '../../i18n.js';
import { fetchParts, Part } from '../../ui/Part.js';
import type { Ctx } from '../../ui/ctx.js';

/** `src` shown small as a button; `name` says what it shows (alt text or the card's title). */
export function Zoomable({ src, name, alt = '', ctx }: { src: string; name: string; alt?: string; ctx: Ctx }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        type="button"
        class="zoom"
        ref={button}
        aria-haspopup="dialog"
        aria-label={fill(ctx.strings.zoom, { name }).replace(/\s*:\s*$/, '')}
        onPointerEnter={fetchParts}
        onFocus={fetchParts}
        onClick={() => setOpen(true)}
      >
        <img src={src} alt="" loading="lazy" />
      </button>
      {open && (
        <Part
          name="ZoomDialog"
          ctx={ctx}
          props={{
            src,
            name,
            alt,
            ctx,
            onClose: () => {
              setOpen(false);
              button.current?.focus();
            },
          }}
        />
      )}
    </>
  );
}
