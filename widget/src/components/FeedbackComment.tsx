/**
 * The comment box after a thumbs down (Feedback.tsx draws the thumbs), and the thanks once one is
 * sent. In the parts chunk: few visitors write one. The box takes focus as it opens; Enter sends,
 * Shift+Enter breaks the line, Escape leaves it (the thumbs down stays).
 */
import { useEffect, useRef } from 'preact/hooks';
import { partStrings } from '../parts-strings.js';
import type { Ctx } from '../ui/ctx.js';

export function FeedbackComment({ ctx, thanked, send, leave }: { ctx: Ctx; thanked: boolean; send: (comment: string) => void; leave: () => void }) {
  const strings = partStrings(ctx.strings);
  const box = useRef<HTMLTextAreaElement>(null);
  // The box opens for typing: a keyboard user should not have to look for it.
  useEffect(() => box.current?.focus(), []);
  return (
    <>
      {!thanked && (
        <form
          class="comment"
          onSubmit={(e) => {
            e.preventDefault();
            send(box.current!.value.trim());
          }}
        >
          <textarea
            ref={box}
            rows={3}
            aria-label={strings.comment}
            placeholder={strings.comment}
            maxLength={1000}
            // Typed text in its own direction (Latin in an Arabic panel); empty, the panel's.
            onInput={(e) => (e.currentTarget.dir = e.currentTarget.value ? 'auto' : '')}
            onKeyDown={(e) => {
              // As in the composer: Enter sends, Shift+Enter breaks the line.
              if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
                e.preventDefault();
                send(e.currentTarget.value.trim());
              }
              // Escape leaves the comment (the thumbs down stays), not the whole chat.
              if (e.key === 'Escape') {
                e.stopPropagation();
                leave();
              }
            }}
          />
          <button type="submit" class="pill">
            {strings.send}
          </button>
        </form>
      )}
      {/* There while the box is open, so screen readers hear the thanks when it fills the region. */}
      <p class="muted" role="status">
        {thanked && strings.commentThanks}
      </p>
    </>
  );
}
