/** Thumbs up and down under an answer, with an optional comment after a thumbs down. */
import { useState } from 'preact/hooks';
import type { FeedbackValue } from '../../../shared/types.js';
import type { Ctx } from './ctx.js';
import { Icon, THUMB } from './Icon.js';

/** The vote buttons of the answer `id`: toggle buttons, so screen readers say "pressed" for the current vote. */
export function Feedback({ c, id }: { c: Ctx; id: string }) {
  const { s, t } = c;
  const vote = s.votes.value[id];
  const [asking, setAsking] = useState(false);
  const press = (value: FeedbackValue) => {
    if (vote !== value) void s.vote(id, value);
    setAsking(value === 'down');
  };
  return (
    <div class="fb" role="group" aria-label={t.rate}>
      {(['up', 'down'] as const).map((value) => (
        <button type="button" class={`ib ${value}`} aria-label={t[value]} aria-pressed={vote === value} onClick={() => press(value)}>
          <Icon d={THUMB} />
        </button>
      ))}
      {asking && (
        <form
          class="fc"
          onSubmit={(e) => {
            e.preventDefault();
            const comment = (e.currentTarget.elements[0] as HTMLTextAreaElement).value.trim();
            if (comment) void s.vote(id, 'down', comment);
            setAsking(false);
          }}
        >
          <textarea rows={1} aria-label={t.comment} placeholder={t.comment} maxLength={1000} />
          <button type="submit" class="hb">
            {t.send}
          </button>
        </form>
      )}
    </div>
  );
}
