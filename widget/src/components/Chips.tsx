/**
 * The files chosen for the next message, as chips above the composer: a thumbnail for images, the
 * name, the size in the visitor's language and, while they upload, each file's own progress; a
 * refused file says so. The × takes a chip away and gives focus to the next chip (else the one
 * before, else the message box), so a keyboard user stays where they were.
 */
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { fileSize, fill } from '../i18n.js';
import type { Ctx } from '../ui/ctx.js';
import { CLOSE, Icon } from '../ui/Icon.js';
import { DOC } from '../ui/part-icons.js';
import { partStrings } from '../parts-strings.js';

/**
 * An image's thumbnail: decoded by `createImageBitmap` and drawn on a canvas, not a `blob:` URL in
 * an `<img>`. That would need `img-src blob:`, which strict page CSPs (the one the widget promises
 * to work under) do not allow: Chromium blocks it and logs a violation on the host page. A canvas
 * is not governed by `img-src`, and holds no URL to revoke. What does not decode shows the document icon
 * (a file to send, not one to download). Also the thumbnails of a sent message's files (Attachments.tsx).
 */
export function Thumb({ file }: { file: File }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    if (!file.type.startsWith('image/')) return;
    let live = true;
    // Called inside the promise: a browser without createImageBitmap keeps the icon as well.
    Promise.resolve()
      .then(() => createImageBitmap(file))
      .then((bitmap) => {
        const c = canvas.current;
        if (live && c) {
          // The middle square of the image, like `object-fit: cover`.
          const side = Math.min(bitmap.width, bitmap.height);
          c.getContext('2d')?.drawImage(bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, c.width, c.height);
          setDrawn(true);
        }
        bitmap.close();
      })
      .catch(() => {});
    return () => void (live = false);
  }, [file]);
  return (
    <>
      <canvas ref={canvas} width={64} height={64} hidden={!drawn} aria-hidden="true" />
      {!drawn && <Icon d={DOC} />}
    </>
  );
}

/** The chips of the chosen files; `box` is the message box, which gets focus after the last chip goes. */
export function Chips({ ctx, box }: { ctx: Ctx; box: RefObject<HTMLTextAreaElement | null> }) {
  const strings = partStrings(ctx.strings);
  const { state, actions } = ctx.store;
  const list = useRef<HTMLUListElement>(null);
  const chosen = state.chosen.value;
  if (!chosen.length) return null;
  return (
    <ul class="chips" ref={list} aria-label={strings.files}>
      {chosen.map((c) => {
        const name = c.file.name;
        return (
          <li key={c.id} class={c.failed ? 'chip failed' : 'chip'}>
            <Thumb file={c.file} />
            <bdi class="name" title={name}>
              {name}
            </bdi>
            <span class="size">{fileSize(c.file.size, ctx.locale)}</span>
            {c.progress !== undefined ? (
              <div class="progress" role="progressbar" aria-label={fill(strings.uploading, { name })} aria-valuenow={c.progress}>
                {/* A CSSOM width, not a style attribute: allowed under a CSP without unsafe-inline. */}
                <i style={{ width: c.progress + '%' }} />
              </div>
            ) : (
              <>
                {c.failed && <span class="status">{strings.fileFailed}</span>}
                <button
                  type="button"
                  class="icon"
                  aria-label={fill(strings.removeFile, { name })}
                  onClick={(e) => {
                    // Focus moves before the button goes, so it never falls to <body>.
                    const buttons = Array.from(list.current!.querySelectorAll('button'));
                    const at = buttons.indexOf(e.currentTarget);
                    (buttons[at + 1] || buttons[at - 1] || box.current)?.focus();
                    actions.removeFile(c.id);
                  }}
                >
                  <Icon d={CLOSE} />
                </button>
              </>
            )}
          </li>
        );
      })}
    </ul>
  );
}
