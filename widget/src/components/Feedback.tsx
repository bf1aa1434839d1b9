/** Thumbs up and down under an answer, with an optional comment after a thumbs down. */
import { useState } from 'preact/hooks';
import type { FeedbackValue } from '../../../shared/types.js';
import type { Ctx } from './ctx.js';
import { Icon, THUMB } from './Icon.js';

/** The vote buttons of the answer `id`: toggle buttons, so screen readers say "pressed" for the current vote. */
export function Feedback({ ctx, id }: { ctx: Ctx; id: string }) {
  const { store, strings } = ctx;
  const vote = store.votes.value[id];
  const [asking, setAsking] = useState(false);
  const press = (value: FeedbackValue) => {
    if (vote !== value) void store.vote(id, value);
    setAsking(value === 'down');
  };
  return (
    <div class="feedback" role="group" aria-label={strings.rate}>
      {(['up', 'down'] as const).map((value) => (
        <button type="button" class={`icon ${value}`} aria-label={strings[value]} aria-pressed={vote === value} onClick={() => press(value)}>
          <Icon d={THUMB} />
        </button>
      ))}
      {asking && (
        <form
          class="comment"
          onSubmit={(e) => {
            e.preventDefault();
            const comment = (e.currentTarget.elements[0] as HTMLTextAreaElement).value.trim();
            if (comment) void store.vote(id, 'down', comment);
            setAsking(false);
          }}
        >
          <textarea rows={1} aria-label={strings.comment} placeholder={strings.comment} maxLength={1000} />
          <button type="submit" class="pill">
            {strings.send}
          </button>
        </form>
      )}
    </div>
  );
}
