/**
 * "How did we do?" at the end of a conversation (docs/api.md "People", CSAT): five radio buttons in a
 * fieldset (arrow keys move between them, as in any radio group), an optional comment, and a thanks
 * that every tab shows once any of them has sent the rating.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { FEEDBACK_COMMENT_MAX_LENGTH } from '../../../shared/types.js';
import { localNumber } from '../i18n.js';
import type { Ctx } from '../ui/ctx.js';
import { partStrings } from '../parts-strings.js';

export function Csat({ ctx }: { ctx: Ctx }) {
  const strings = partStrings(ctx.strings);
  const { state, actions } = ctx.store;
  const [score, setScore] = useState(0);
  const [comment, setComment] = useState('');
  const [phase, setPhase] = useState<'asking' | 'sending' | 'failed' | 'not_asked'>('asking');
  const thanks = useRef<HTMLParagraphElement>(null);
  const sentHere = useRef(false);
  const rating = state.rating.value;
  // The form goes when the rating is in: focus moves to the thanks, not to <body>.
  useEffect(() => void (rating && sentHere.current && thanks.current?.focus()), [rating]);

  if (rating) {
    return (
      <p class="csat-thanks" role="status" tabIndex={-1} ref={thanks}>
        {strings.csatThanks}
      </p>
    );
  }
  if (phase === 'not_asked') return null;
  const labels = strings.csatScale.split('|');
  const submit = async (e: Event) => {
    e.preventDefault();
    // No score yet: the scale takes focus, and its question is read out, rather than nothing happening.
    if (!score) return (e.currentTarget as HTMLFormElement).querySelector('input')!.focus();
    if (phase === 'sending') return;
    sentHere.current = true;
    setPhase('sending');
    try {
      setPhase((await actions.rate(score, comment.trim() || undefined)) ? 'asking' : 'not_asked');
    } catch {
      setPhase('failed');
    }
  };
  return (
    <form class="csat" onSubmit={submit}>
      <fieldset>
        <legend>{strings.csatQuestion}</legend>
        <div class="scale">
          {labels.map((label, i) => (
            <label key={i} class={score === i + 1 ? 'on' : undefined}>
              <input class="sr-only" type="radio" name="csat" value={i + 1} checked={score === i + 1} onChange={() => setScore(i + 1)} />
              <span aria-hidden="true">{localNumber(i + 1, ctx.locale)}</span>
              <span class="sr-only">{label}</span>
            </label>
          ))}
        </div>
        <p class="scale-ends" aria-hidden="true">
          <span>{labels[0]}</span>
          <span>{labels[labels.length - 1]}</span>
        </p>
      </fieldset>
      {score > 0 && (
        <label class="csat-comment">
          {strings.csatComment}
          <textarea dir={comment ? 'auto' : undefined} rows={2} maxLength={FEEDBACK_COMMENT_MAX_LENGTH} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
        </label>
      )}
      {phase === 'failed' && (
        <p class="error" role="alert">
          {strings.csatFailed}
        </p>
      )}
      <button type="submit" class="primary" aria-disabled={!score || phase === 'sending'}>
        {strings.csatSend}
      </button>
    </form>
  );
}
