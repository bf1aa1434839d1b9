/** Thumbs up and down under an answer, with an optional comment after a thumbs down, and a short thanks for it. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { FeedbackValue } from '../../../shared/types.js';
import type { Ctx } from './ctx.js';
import { Icon, THUMB } from './Icon.js';

/** The vote buttons of the answer `id`: toggle buttons, so screen readers say "pressed" for the current vote. */
export function Feedback({ ctx, id }: { ctx: Ctx; id: string }) {
  const { strings } = ctx;
  const { state, actions } = ctx.store;
  const vote = state.votes.value[id];
  const [step, setStep] = useState<'idle' | 'asking' | 'thanked'>('idle');
  const box = useRef<HTMLTextAreaElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  // The box opens for typing: a keyboard user should not have to look for it.
  useEffect(() => {
    if (step === 'asking') box.current?.focus();
  }, [step]);
  const press = (value: FeedbackValue) => {
    if (vote !== value) void actions.vote(id, value);
    setStep(value === 'down' ? 'asking' : 'idle');
  };
  const send = () => {
    const comment = box.current!.value.trim();
    if (comment) void actions.vote(id, 'down', comment);
    setStep(comment ? 'thanked' : 'idle');
    // The box goes away: focus goes back to the button that opened it, not to <body>.
    down.current?.focus();
  };
  return (
    <div class="feedback" role="group" aria-label={strings.rate}>
      {(['up', 'down'] as const).map((value) => (
        <button
          type="button"
          ref={value === 'down' ? down : undefined}
          class={`icon ${value}`}
          aria-label={strings[value]}
          aria-pressed={vote === value}
          onClick={() => press(value)}
        >
          <Icon d={THUMB} />
        </button>
      ))}
      {step === 'asking' && (
        <form
          class="comment"
          onSubmit={(e) => {
            e.preventDefault();
            send();
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
                send();
              }
              // Escape leaves the comment (the thumbs down stays), not the whole chat.
              if (e.key === 'Escape') {
                e.stopPropagation();
                setStep('idle');
                down.current?.focus();
              }
            }}
          />
          <button type="submit" class="pill">
            {strings.send}
          </button>
        </form>
      )}
      {/* There while the box is open, so screen readers hear the thanks when it fills the region. */}
      {step !== 'idle' && (
        <p class="muted" role="status">
          {step === 'thanked' && strings.commentThanks}
        </p>
      )}
    </div>
  );
}
