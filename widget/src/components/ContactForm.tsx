/**
 * While the team is away, a form that takes an address so the team can answer by email
 * (docs/api.md "People", POST /api/contact), then a thanks. A signed-in visitor is never asked: the
 * site knows who they are.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { fill } from '../i18n.js';
import type { Ctx } from './ctx.js';

export function ContactForm({ ctx }: { ctx: Ctx }) {
  const { store, strings } = ctx;
  const consentText = store.config.value?.consentText;
  const [email, setEmail] = useState('');
  const [consent, setConsent] = useState(false);
  const [problem, setProblem] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const thanks = useRef<HTMLParagraphElement>(null);
  const sentHere = useRef(false);
  const given = store.contact.value;
  useEffect(() => void (given && sentHere.current && thanks.current?.focus()), [given]);

  // Drawn only while Team.tsx's showsContact says so: with an address given, the team is away and
  // this is the form's thanks (an address from the pre-chat form while the team is there needs none).
  if (given) {
    return (
      <p class="banner contact-thanks" role="status" tabIndex={-1} ref={thanks}>
        {fill(strings.contactThanks, { email: given })}
      </p>
    );
  }
  const submit = async (e: Event) => {
    e.preventDefault();
    if (sending) return;
    // The browser's own check of type=email, with our words, and the box keeps focus.
    if (!input.current?.checkValidity() || !email.trim()) {
      setProblem(strings.contactInvalid);
      input.current?.focus();
      return;
    }
    if (consentText && !consent) return setProblem(strings.contactConsent);
    sentHere.current = true;
    setSending(true);
    try {
      await store.leaveContact(email.trim(), consentText ? consent : undefined);
      setProblem(undefined);
    } catch {
      setProblem(strings.contactFailed);
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
          aria-invalid={problem === strings.contactInvalid || undefined}
          aria-describedby={problem ? 'parley-contact-problem' : undefined}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
        <button type="submit" class="primary" aria-disabled={sending}>
          {strings.contactSend}
        </button>
      </div>
      {consentText && (
        <label class="consent">
          <input type="checkbox" checked={consent} onChange={(e) => setConsent(e.currentTarget.checked)} />
          {consentText}
        </label>
      )}
      {problem && (
        <p id="parley-contact-problem" class="error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}
