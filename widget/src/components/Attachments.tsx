/**
 * The files a visitor sent, in their bubble: a thumbnail for an image sent from this page (the chip's
 * canvas, no `blob:` URL a strict CSP would block), a document icon and the name for any other file or one
 * known only by name (history after a reload: the service keeps names, not the files).
 */
import { partStrings } from '../parts-strings.js';
import type { Ctx } from '../ui/ctx.js';
import { Thumb } from './Chips.js';
import { Icon } from '../ui/Icon.js';
import { DOC } from '../ui/part-icons.js';

export function Attachments({ names, files, ctx }: { names: string[]; files?: readonly File[]; ctx: Ctx }) {
  return (
    <ul class="attachments" aria-label={partStrings(ctx.strings).attachments}>
      {names.map((name, i) => {
        const file = files?.find((f) => f.name === name) ?? files?.[i];
        return (
          <li key={i}>
            {file ? <Thumb file={file} /> : <Icon d={DOC} />}
            <bdi class="name" title={name}>
              {name}
            </bdi>
          </li>
        );
      })}
    </ul>
  );
}
