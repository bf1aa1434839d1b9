/**
 * While the team is away, a form that takes an address so the team can answer by email
 * (docs/api.md "People", POST /api/contact), then a thanks. Asked for before the first message
 * ("Talk to a person"), the address waits with the pre-chat answers until that message starts the
 * conversation. A signed-in visitor is never asked: the
 * site knows who they are.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.js';
import { addressOk } from '../address.js';
import { textIn } from '../../../shared/localized.js';
import { fill, localeTag } from '../i18n.js';
import type { Ctx } from '../ui/ctx.js';
import { partStrings } from '../parts-strings.js';
import { givenContact } from './Team.js';

export function ContactForm({ ctx }: { ctx: Ctx }) {
  const strings = partStrings(ctx.strings);
  const { state, actions } = ctx.store;
  const configured = state.config.value?.consentText;
  const consentText = configured === undefined ? undefined : textIn(configured, localeTag(ctx.options.locale));
  const [email, setEmail] = useState('');
  const [consent, setConsent] = useState(false);
  const [problem, setProblem] = useState<{ text: string; about: About; n: number } | undefined>();
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const thanks = useRef<HTMLParagraphElement>(null);
  const sentHere = useRef(false);
  const given = givenContact(ctx);
  useEffect(() => void (given && sentHere.current && thanks.current?.focus()), [given]);

  // Drawn only while Team.tsx's showsContact says so: with an address given, the team is away and
  // this is the form's thanks (an address from the pre-chat form while the team is there needs none).
  // Given before the conversation existed, it is kept and goes to the team as it starts (prechat.ts).
  if (given) {
    return (
      <p class="banner contact-thanks" role="status" tabIndex={-1} ref={thanks}>
        {fill(strings.contactThanks, { email: given })}
      </p>
    );
  }
  // Said again as new, so a screen reader announces a repeated problem too; a wrong address keeps focus in its box.
  const say = (text: string, about: About) => {
    setProblem({ text, about, n: (problem?.n ?? 0) + 1 });
    if (about === 'email') input.current?.focus();
  };
  // The problem stands under what it is about: the address box, the consent box, or the form.
  const said = (about: About) =>
    problem?.about === about && (
      <p key={problem.n} id="parley-contact-problem" class="error" role="alert">
        {problem.text}
      </p>
    );
  const submit = async (e: Event) => {
    e.preventDefault();
    if (sending) return;
    // The BFF's rule (the browser's own check of type=email and a dot in the domain), with our
    // words, and the box keeps focus.
    if (!addressOk(input.current)) return say(strings.contactInvalid, 'email');
    if (consentText && !consent) return say(strings.contactConsent, 'consent');
    sentHere.current = true;
    setSending(true);
    try {
      await actions.leaveContact(email.trim(), consentText ? consent : undefined);
      setProblem(undefined);
    } catch (err) {
      // Refused as an address (a rule of the BFF's this form does not know): say so, not "try again".
      if (err instanceof ApiError && err.code === 'contact_invalid') say(strings.contactInvalid, 'email');
      else say(strings.contactFailed, 'form');
    } finally {
      setSending(false);
    }
  };
  return (
    <form class="contact" onSubmit={submit} noValidate>
      <label for="parley-contact">{strings.contactAsk}</label>
      <div class="contact-row">
        <input
          id="parley-contact"
          ref={input}
          type="email"
          autocomplete="email"
          maxLength={254}
          placeholder={strings.contactEmail}
          value={email}
          aria-invalid={problem?.about === 'email' || undefined}
          aria-describedby={problem?.about === 'email' ? 'parley-contact-problem' : undefined}
          onInput={(e) => {
            setEmail(e.currentTarget.value);
            // The box changed: what was said about the address no longer holds.
            if (problem?.about === 'email') setProblem(undefined);
          }}
        />
        <button type="submit" class="primary" aria-disabled={sending}>
          {strings.contactSend}
        </button>
      </div>
      {said('email')}
      {consentText && (
        <label class="consent">
          <input
            type="checkbox"
            checked={consent}
            aria-invalid={problem?.about === 'consent' || undefined}
            aria-describedby={problem?.about === 'consent' ? 'parley-contact-problem' : undefined}
            onChange={(e) => {
              setConsent(e.currentTarget.checked);
              if (problem?.about === 'consent') setProblem(undefined);
            }}
          />
          <span dir="auto">{consentText}</span>
        </label>
      )}
      {said('consent')}
      {said('form')}
    </form>
  );
}

type About = 'email' | 'consent' | 'form';
