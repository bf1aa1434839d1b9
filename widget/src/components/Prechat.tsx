/**
 * The pre-chat form (prechat.ts, docs/api.md "People"): in place of the composer before an
 * anonymous visitor's first message, it asks for the configured fields. Each box is checked by the
 * browser's own rules (type=email) with our words, and the first wrong one keeps focus; with
 * `required` every field must be filled, else blank boxes or Skip go on without them.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { textIn } from '../../../shared/localized.js';
import { addressOk } from '../address.js';
import { localeTag } from '../i18n.js';
import { prechatOf } from '../prechat.js';
import type { Ctx } from '../ui/ctx.js';
import { partStrings } from '../parts-strings.js';

export function Prechat({ ctx, focusInput }: { ctx: Ctx; focusInput: () => void }) {
  const { store } = ctx;
  const strings = partStrings(ctx.strings);
  const { state, actions } = ctx.store;
  const setting = prechatOf(ctx.options, state.config.value)!;
  const asksName = setting.fields.includes('name');
  const asksEmail = setting.fields.includes('email');
  // The consent belongs to the address: asked only where an address is.
  const configured = asksEmail ? state.config.value?.consentText : undefined;
  const consentText = configured === undefined ? undefined : textIn(configured, localeTag(ctx.options.locale));
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [consent, setConsent] = useState(false);
  const [problem, setProblem] = useState<{ text: string; field: Field; n: number } | undefined>();
  const boxes = { name: useRef<HTMLInputElement>(null), email: useRef<HTMLInputElement>(null), consent: useRef<HTMLInputElement>(null) };

  // Loaded after the panel opened, which then took focus in its place: the panel's `focusInput`
  // gives it to the first box (not on touch screens; not from anywhere else on the page).
  useEffect(() => {
    const first = (asksName ? boxes.name : boxes.email).current;
    const root = first?.getRootNode();
    if (root instanceof ShadowRoot && root.activeElement === first?.closest('.panel')) focusInput();
  }, []);
  const wrong = (text: string, field: Field) => {
    // Said again as new (`n`), so a screen reader announces a repeated problem too.
    setProblem({ text, field, n: (problem?.n ?? 0) + 1 });
    boxes[field].current?.focus();
  };
  const done = (answers: Parameters<Store['actions']['givePrechat']>[0]) => {
    actions.givePrechat(answers);
    // The form goes: focus moves to the composer that takes its place.
    setTimeout(focusInput);
  };
  const submit = (e: Event) => {
    e.preventDefault();
    const n = name.trim();
    const m = email.trim();
    if (asksName && setting.required && !n) return wrong(strings.prechatNameMissing, 'name');
    if (asksEmail && ((setting.required && !m) || (m && !addressOk(boxes.email.current)))) return wrong(strings.contactInvalid, 'email');
    if (m && consentText && !consent) return wrong(strings.contactConsent, 'consent');
    done({ ...(n && { name: n }), ...(m && { email: m }), ...(m && consentText && { consent: true }) });
  };
  // A box changed: what was said about it no longer holds.
  const edited = (field: Field) => problem?.field === field && setProblem(undefined);
  const invalid = (field: Field) => (problem?.field === field ? { 'aria-invalid': true, 'aria-describedby': 'parley-prechat-problem' } : {});
  // The problem stands under the box it is about, where the eye and a magnifier already are.
  const said = (field: Field) =>
    problem?.field === field && (
      <p key={problem.n} id="parley-prechat-problem" class="error" role="alert">
        {problem.text}
      </p>
    );

  return (
    <form class="prechat" onSubmit={submit} noValidate aria-labelledby="parley-prechat-ask">
      <p id="parley-prechat-ask">{strings.prechatAsk}</p>
      {/* With no Skip, the form says at once that every box must be filled, not after a try. */}
      {setting.required && <p class="note">{strings.prechatAllRequired}</p>}
      {asksName && (
        <label>
          {strings.prechatName}
          <input ref={boxes.name} type="text" autocomplete="name" maxLength={100} aria-required={setting.required || undefined} value={name} {...invalid('name')} onInput={(e) => (setName(e.currentTarget.value), edited('name'))} />
        </label>
      )}
      {said('name')}
      {asksEmail && (
        <label>
          {strings.prechatEmail}
          <input ref={boxes.email} type="email" autocomplete="email" maxLength={254} aria-required={setting.required || undefined} value={email} {...invalid('email')} onInput={(e) => (setEmail(e.currentTarget.value), edited('email'))} />
        </label>
      )}
      {said('email')}
      {consentText && (
        <label class="consent">
          <input ref={boxes.consent} type="checkbox" checked={consent} {...invalid('consent')} onChange={(e) => (setConsent(e.currentTarget.checked), edited('consent'))} />
          <span dir="auto">{consentText}</span>
        </label>
      )}
      {said('consent')}
      <div class="prechat-actions">
        <button type="submit" class="primary">
          {strings.prechatStart}
        </button>
        {!setting.required && (
          <button type="button" class="pill" onClick={() => done({})}>
            {strings.prechatSkip}
          </button>
        )}
      </div>
    </form>
  );
}

type Store = Ctx['store'];
type Field = 'name' | 'email' | 'consent';
