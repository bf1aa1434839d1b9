/**
 * The text box: Enter sends, Shift+Enter adds a line; a refused message comes back with a retry.
 * With uploads on, an attach button opens the file picker; files over the limits are refused here.
 */
import { useRef } from 'preact/hooks';
import { fill } from '../i18n.js';
import type { Ctx } from './ctx.js';
import { CLIP, CLOSE, Icon, SEND } from './Icon.js';

/** The composer of the panel. */
export function Composer({ c }: { c: Ctx }) {
  const { s, t } = c;
  const text = s.draft.value;
  const config = s.config.value;
  const lim = config?.limits;
  const up = s.upload.value;
  const picker = useRef<HTMLInputElement>(null);
  const upText =
    up &&
    (up.code === 'too_many'
      ? fill(t.tooMany, { n: lim!.maxUploadFiles })
      : up.code === 'too_big'
        ? fill(t.tooBig, { n: Math.round(lim!.maxUploadBytes / 104857.6) / 10 })
        : up.code === 'payload_too_large'
          ? t.tooLarge
          : up.code === 'feature_disabled'
            ? t.uploadOff
            : t.notUploaded);
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
      {upText && (
        <p class="er" role="alert">
          {upText}
          {up.item && (
            <button type="button" onClick={s.retryUpload}>
              {t.retry}
            </button>
          )}
          <button type="button" class="x" aria-label={t.dismiss} onClick={s.dismissUpload}>
            <Icon d={CLOSE} />
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
        {config?.features.upload && (
          <>
            {/* The button is the control people use; the hidden input only hosts the browser's picker. */}
            <input
              ref={picker}
              type="file"
              multiple
              hidden
              onChange={(e) => {
                s.attach(Array.from(e.currentTarget.files || []));
                e.currentTarget.value = ''; // the same file again must fire `change` again
              }}
            />
            <button type="button" class="ib" aria-label={t.attach} onClick={() => picker.current!.click()}>
              <Icon d={CLIP} />
            </button>
          </>
        )}
        {/* dir=auto: typed text (and an empty box's placeholder) in its own direction, whatever the widget's */}
        <textarea
          dir="auto"
          rows={1}
          aria-label={t.message}
          placeholder={t.placeholder}
          maxLength={lim?.textMaxLength || 4000}
          value={text}
          onInput={(e) => s.setDraft(e.currentTarget.value)}
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
