/** The text box: Enter sends, Shift+Enter adds a line; a refused message comes back with a retry. */
import type { Ctx } from './ctx.js';
import { Icon, SEND } from './Icon.js';

/** The composer of the panel. */
export function Composer({ c }: { c: Ctx }) {
  const { s, t } = c;
  const text = s.draft.value;
  return (
    <>
      {s.failed.value && (
        <p class="er" role="alert">
          {t.notSent}
          <button type="button" onClick={s.submit}>
            {t.retry}
          </button>
        </p>
      )}
      <form
        class="c"
        onSubmit={(e) => {
          e.preventDefault();
          s.submit();
        }}
      >
        <textarea
          rows={1}
          aria-label={t.message}
          placeholder={t.placeholder}
          maxLength={s.config.value?.limits.textMaxLength || 4000}
          value={text}
          onInput={(e) => (s.draft.value = e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              s.submit();
            }
          }}
        />
        <button type="submit" class="sb" aria-label={t.send} disabled={!text.trim()}>
          <Icon d={SEND} />
        </button>
      </form>
    </>
  );
}
