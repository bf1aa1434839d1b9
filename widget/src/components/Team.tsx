/**
 * The people behind the chat (docs/api.md "People"): a line saying how soon the team answers while
 * it is there, or when it is back while it is away, until a person has written in the conversation
 * or it ended; and when to ask, while it is away, for an address (ContactForm.tsx).
 */
import { formatOpening, replyKey } from '../hours.js';
import { fill } from '../i18n.js';
import type { Ctx } from '../ui/ctx.js';

/** "The team usually replies in a few minutes" or "We're away right now. Back Monday 09:00." */
export function TeamLine({ ctx }: { ctx: Ctx }) {
  const { strings } = ctx;
  const { state } = ctx.store;
  const config = state.config.value;
  // (Not `h`: that is what the JSX here compiles to.)
  const handoff = config?.handoff;
  // Not on an ended conversation either: nobody will answer it, so no promise of how soon. Nor
  // while a person is awaited and the team is away: the banner says so, and until when (Panel.tsx).
  if (!handoff || !config.features.escalation || handoff.offer === 'never' || state.personHere.value || state.convo.value === 'archived') return null;
  const { open, replyTime } = handoff;
  if (!open && state.awaitingPerson.value) return null;
  const until = awayUntil(ctx);
  const text = open ? strings[replyKey(replyTime)] : until ? fill(strings.away, { when: until }) : strings.awayUnknown;
  return <p class={open ? 'team' : 'team away'}>{text}</p>;
}

/** While the team is away: when it is back, in the visitor's words ("Monday 09:00"), if the site said. */
export function awayUntil(ctx: Ctx): string | undefined {
  const handoff = ctx.store.state.config.value?.handoff;
  return handoff && !handoff.open && handoff.opensAt ? formatOpening(handoff.opensAt, ctx.locale) : undefined;
}

/**
 * The address the team may answer at: the one the BFF has for this conversation, else one given
 * before it existed (the away form or the pre-chat form), which goes to it as it starts (prechat.ts).
 */
export const givenContact = (ctx: Ctx): string | undefined => ctx.store.state.contact.value || ctx.store.state.prechat.value?.email;

/**
 * Whether to ask for an address: the team is away, the visitor wrote or asked for a person (before
 * the first message too: at once, not after it), and gave none yet.
 */
export function asksForContact(ctx: Ctx): boolean {
  const { state } = ctx.store;
  const handoff = state.config.value?.handoff;
  if (!handoff || handoff.open || givenContact(ctx) || state.user.value || state.convo.value === 'archived') return false;
  return state.convo.value === 'escalated' || state.escalating.value || state.messages.value.some((m) => m.role === 'user');
}

/** Whether the away form or its thanks shows (the form comes with the parts chunk, so only then is it drawn). */
export const showsContact = (ctx: Ctx): boolean => (givenContact(ctx) ? ctx.store.state.config.value?.handoff?.open === false : asksForContact(ctx));
