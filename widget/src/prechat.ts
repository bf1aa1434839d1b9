/**
 * The pre-chat form (docs/api.md "People"): `init({prechat})` or `/api/config` `prechat`
 * (PRECHAT_FIELDS, PRECHAT_REQUIRED) asks an anonymous visitor for a name and an address before
 * the first message. The answers wait in this tab (sessionStorage, like the queue) until that
 * message starts a conversation: the name goes along as its `profileName`, the address (with the
 * name and the consent) to POST /api/contact. A signed-in visitor is never asked: the site knows them.
 */
import { effect, signal, type ReadonlySignal } from '@preact/signals';
import type { PublicConfig, SessionUser } from '../../shared/types.js';
import type { Convo } from './apply-event.js';
import type { Auth } from './auth.js';
import type { ParleyOptions } from './public-types.js';
import { keep, kept } from './storage.js';

/** What the visitor gave; `{}` when they skipped the form. */
export interface PrechatAnswers {
  name?: string;
  email?: string;
  consent?: boolean;
}

/** Which fields to ask for, and whether the form may be skipped. */
export type PrechatSetting = NonNullable<PublicConfig['prechat']>;

/** The page's `init({prechat})` over the BFF's (`false` turns it off); undefined when nothing is asked. */
export function prechatOf(options: ParleyOptions, config: PublicConfig | undefined): PrechatSetting | undefined {
  const setting = options.prechat === undefined ? config?.prechat : options.prechat || undefined;
  const fields = setting?.fields.filter((f) => f === 'name' || f === 'email') ?? [];
  return fields.length > 0 ? { fields, required: !!setting?.required } : undefined;
}

/** What `asksPrechat` reads of the store's state. */
interface Asked {
  convo: ReadonlySignal<Convo>;
  user: ReadonlySignal<SessionUser | undefined>;
  prechat: ReadonlySignal<PrechatAnswers | undefined>;
  config: ReadonlySignal<PublicConfig | undefined>;
}

/** Whether the form stands before the composer: no conversation yet, an anonymous visitor, not answered in this tab. */
export function asksPrechat(st: Asked, options: ParleyOptions): boolean {
  return st.convo.value === 'none' && !st.user.value && !st.prechat.value && !!prechatOf(options, st.config.value);
}

/**
 * The answers of this tab (written only here): kept in sessionStorage by an effect, read back after
 * a reload, and sent once a conversation exists. The away form's address given before the first
 * message waits here too (`hold`). `contacted`: the BFF took the address.
 */
export function createPrechat(auth: Auth, report: (e: unknown) => void, locale: string, contacted: (email: string) => void) {
  const key = auth.key + ':p';
  const answers = signal(kept<PrechatAnswers>('sessionStorage', key));
  const unkeep = effect(() => keep('sessionStorage', key, answers.value));
  return {
    answers: answers as ReadonlySignal<PrechatAnswers | undefined>,
    give(given: PrechatAnswers) {
      answers.value = given;
    },
    /** An address (and the consent to it) given before there is a conversation: it goes with the others once there is. */
    hold(email: string, consent?: boolean) {
      answers.value = { ...answers.value, email, consent };
    },
    /** The name for the conversation's `profileName`, when the page set none. */
    name: () => answers.value?.name,
    /**
     * A conversation started: the address goes to the team (every tab learns it from the stream).
     * Refused, it is dropped from the answers, so the away form asks for it again.
     */
    started() {
      const { email, name, consent } = answers.value ?? {};
      if (!email) return;
      // `locale`: which language's consent text the visitor read.
      const body = { email, ...(name && { name }), ...(consent !== undefined && { consent, locale }) };
      const id = auth.session?.sessionId;
      auth.authed('POST /api/contact', { body }).then(
        // Not into a conversation that replaced this one meanwhile.
        () => id === auth.session?.sessionId && contacted(email),
        (e: unknown) => {
          answers.value = { ...answers.value, email: undefined };
          report(e);
        },
      );
    },
    /** `Parley('reset')`: the next person at this browser is asked again. */
    forget() {
      answers.value = undefined;
    },
    destroy: unkeep,
  };
}
