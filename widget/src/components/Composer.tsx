/**
 * The text box: Enter sends, Shift+Enter adds a line; a refused message comes back with a retry.
 * With uploads on, an attach button opens the file picker; picked, pasted (and dropped, Panel.tsx)
 * files wait as chips above the box and go with the next send. Files over the limits are refused
 * as they come, by name.
 */
import { useRef } from 'preact/hooks';
import { fill, localNumber, textDir } from '../i18n.js';
import { fetchParts, Part } from '../ui/Part.js';
import type { Ctx } from '../ui/ctx.js';
import { CLIP, Icon, SEND } from '../ui/Icon.js';

/** Characters left from which the box counts them down. */
const COUNT_FROM = 200;

/** The composer of the panel. */
export function Composer({ ctx }: { ctx: Ctx }) {
  const { strings } = ctx;
  const { state, actions } = ctx.store;
  const text = state.draft.value;
  const config = state.config.value;
  const lim = config?.limits;
  // Said only near the end, and how far over.
  const left = state.charsLeft.value;
  const picker = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const chosen = state.chosen.value;
  return (
    <>
      {state.failed.value && (
        <p class="error" role="alert">
          {strings.notSent}
          <button type="button" onClick={actions.submit}>
            {strings.retry}
          </button>
        </p>
      )}
      {state.upload.value && <Part name="UploadNote" ctx={ctx} props={{ ctx }} />}
      {chosen.length > 0 && <Part name="Chips" ctx={ctx} props={{ ctx, box }} />}
      {left < COUNT_FROM && (
        <p id="parley-count" class={left < 0 ? 'chars over' : 'chars'} aria-live={left < 0 ? 'polite' : undefined}>
          {fill(left < 0 ? strings.tooLong : strings.charsLeft, { n: localNumber(Math.abs(left), ctx.locale) })}
        </p>
      )}
      <form
        class="composer"
        onSubmit={(e) => {
          e.preventDefault();
          actions.submit();
          // Sent with the button, which the emptied box disables: focus stays in the chat, on the box.
          box.current?.focus();
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
              accept={lim?.uploadTypes?.join(',')}
              onChange={(e) => {
                actions.attach(Array.from(e.currentTarget.files || []));
                e.currentTarget.value = ''; // the same file again must fire `change` again
              }}
            />
            <button type="button" class="icon" aria-label={strings.attach} onClick={() => {
                picker.current!.click();
                fetchParts(); // the chips come with the parts chunk: fetched while the picker is open
              }}>
              <Icon d={CLIP} />
            </button>
          </>
        )}
        {/* Typed text in its own direction, whatever the widget's; an empty box in its placeholder's
            (the browser reads an empty dir=auto box as left to right) */}
        <textarea
          ref={box}
          dir={text ? 'auto' : textDir(strings.placeholder)}
          rows={1}
          aria-label={strings.message}
          placeholder={strings.placeholder}
          aria-describedby={left < COUNT_FROM ? 'parley-count' : undefined}
          aria-invalid={left < 0 || undefined}
          value={text}
          onInput={(e) => actions.setDraft(e.currentTarget.value)}
          onPaste={(e) => {
            // A pasted screenshot or copied file is attached; pasted text stays text.
            const files = Array.from(e.clipboardData?.files || []);
            if (!config?.features.upload || !files.length) return;
            e.preventDefault();
            actions.attach(files);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
              e.preventDefault();
              actions.submit();
            }
          }}
        />
        <button type="submit" class="send" aria-label={strings.send} disabled={left < 0 || (!text.trim() && !chosen.some((c) => c.progress === undefined))}>
          <Icon d={SEND} />
        </button>
      </form>
    </>
  );
}
