/**
 * Why the assistant cannot answer (the stream's `notice`): its model is not available in the region
 * the chat runs in, its usage limit is reached, or it is unavailable for now. In the parts chunk:
 * a working assistant never shows it.
 */
import { partStrings } from '../parts-strings.js';
import type { Ctx } from '../ui/ctx.js';

export function Notice({ ctx }: { ctx: Ctx }) {
  const strings = partStrings(ctx.strings);
  const notice = ctx.store.state.notice.value;
  return (
    <p class="error" role="alert">
      {notice === 'model_unavailable_in_region' ? strings.region : notice === 'budget_exhausted' ? strings.budget : strings.unavailable}
    </p>
  );
}
