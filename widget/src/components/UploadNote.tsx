/**
 * Why the last files were not taken (too many, too big, a type not accepted: by name) or not sent
 * (the BFF's refusal), above the composer, with Retry where the files wait for it and a dismiss
 * button. In the parts chunk: there is a problem only once files were chosen, which brought it.
 */
import { fill, localNumber } from '../i18n.js';
import { partStrings } from '../parts-strings.js';
import type { Ctx } from '../ui/ctx.js';
import { CLOSE, Icon } from '../ui/Icon.js';

export function UploadNote({ ctx }: { ctx: Ctx }) {
  const strings = partStrings(ctx.strings);
  const { state, actions } = ctx.store;
  const up = state.upload.value;
  if (!up) return null;
  const lim = state.config.value?.limits;
  const chosen = state.chosen.value;
  const listed = (names: string[]) => new Intl.ListFormat(ctx.locale, { type: 'unit' }).format(names);
  // A type refused here names its files; one the BFF refused names the chips it failed.
  const typeNames = up.code === 'file_type_not_accepted' ? (up.names ?? chosen.filter((c) => c.failed).map((c) => c.file.name)) : undefined;
  const text = typeNames
    ? fill(strings.notAddedType, { names: listed(typeNames) })
    : up.code === 'too_many'
      ? fill(strings.tooMany, { n: localNumber(lim!.maxUploadFiles, ctx.locale) })
      : up.code === 'too_big'
        ? fill(strings.tooBig, { n: localNumber(Math.round(lim!.maxUploadBytes / 104857.6) / 10, ctx.locale) })
        : up.code === 'payload_too_large'
          ? strings.tooLarge
          : up.code === 'feature_disabled'
            ? strings.uploadOff
            : strings.notUploaded;
  return (
    <p class="error" role="alert">
      {/* One flowing text beside the buttons; a space between the sentences, which the alert's text (what is read out) needs. */}
      <span>
        {text}
        {up.names && !typeNames && <> <bdi>{fill(strings.notAdded, { names: listed(up.names) })}</bdi></>}
      </span>
      {(up.item || chosen.some((c) => c.failed)) && (
        <button type="button" onClick={actions.retryUpload}>
          {strings.retry}
        </button>
      )}
      <button type="button" class="dismiss" aria-label={strings.dismiss} onClick={actions.dismissUpload}>
        <Icon d={CLOSE} />
      </button>
    </p>
  );
}
