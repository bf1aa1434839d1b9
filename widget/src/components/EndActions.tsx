/**
 * What an ended conversation offers under its notice (Panel.tsx draws the notice, which takes focus):
 * the rating where the policy asks for one (Csat.tsx), a new conversation, the transcript. In the
 * parts chunk: only a conversation that ended needs it. One main action at a time: while the rating
 * is asked, "Send rating" is it.
 */
import { asksForRating } from '../csat.js';
import { partStrings } from '../parts-strings.js';
import type { Ctx } from '../ui/ctx.js';
import { Csat } from './Csat.js';

export function EndActions({ ctx, restart, transcript }: { ctx: Ctx; restart: () => void; transcript: () => void }) {
  const { state } = ctx.store;
  const strings = partStrings(ctx.strings);
  const asksRating = !state.gone.value && asksForRating(state.config.value?.csat, state.messages.value);
  return (
    <>
      {asksRating && <Csat ctx={ctx} />}
      <button type="button" class={asksRating && !state.rating.value ? 'pill' : 'primary'} onClick={restart}>
        {strings.restart}
      </button>
      <button type="button" class="pill" onClick={transcript}>
        {strings.transcript}
      </button>
    </>
  );
}
