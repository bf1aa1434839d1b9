/** Thumbs up and down under an answer; after a thumbs down, an optional comment and a short thanks for it (FeedbackComment.tsx, in the parts chunk). */
import { useRef, useState } from 'preact/hooks';
import type { FeedbackValue } from '../../../shared/types.js';
import { fetchParts, Part } from '../ui/Part.js';
import type { Ctx } from '../ui/ctx.js';
import { Icon, THUMB } from '../ui/Icon.js';

/** The vote buttons of the answer `id`: toggle buttons, so screen readers say "pressed" for the current vote. */
export function Feedback({ ctx, id }: { ctx: Ctx; id: string }) {
  const { strings } = ctx;
  const { state, actions } = ctx.store;
  const vote = state.votes.value[id];
  const [step, setStep] = useState<'idle' | 'asking' | 'thanked'>('idle');
  const down = useRef<HTMLButtonElement>(null);
  const press = (value: FeedbackValue) => {
    if (vote !== value) void actions.vote(id, value);
    setStep(value === 'down' ? 'asking' : 'idle');
  };
  // The box goes away: focus goes back to the button that opened it, not to <body>.
  const leave = (thanked?: boolean) => {
    setStep(thanked ? 'thanked' : 'idle');
    down.current?.focus();
  };
  const send = (comment: string) => {
    if (comment) void actions.vote(id, 'down', comment);
    leave(!!comment);
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
          // The comment box comes with the parts chunk: fetched as the thumbs down is pointed at.
          onPointerEnter={value === 'down' ? fetchParts : undefined}
          onClick={() => press(value)}
        >
          <Icon d={THUMB} />
        </button>
      ))}
      {step !== 'idle' && <Part name="FeedbackComment" ctx={ctx} props={{ ctx, thanked: step === 'thanked', send, leave: () => leave() }} />}
    </div>
  );
}
