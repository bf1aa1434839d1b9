/** Starter questions (docs/api.md "People"): buttons in an empty conversation; one click sends it. */
import { langOf, localized } from '../i18n.js';
import { asksPrechat } from '../prechat.js';
import type { Ctx } from '../ui/ctx.js';

/**
 * `init({starters})` over `/api/config` `starters` (of a per-language object, the visitor's list, as
 * for the title); nothing once the conversation has a message or after it ended.
 */
export function Starters({ ctx }: { ctx: Ctx }) {
  const { strings, options } = ctx;
  const { state, actions } = ctx.store;
  const starters = (options.starters ?? localized(state.config.value?.starters, langOf(options.locale)) ?? []).map((s) => s.trim()).filter(Boolean);
  // The pre-chat form comes first: a starter would send the first message past it.
  if (!starters.length || state.convo.value === 'archived' || asksPrechat(state, options)) return null;
  const ask = (e: MouseEvent, text: string) => {
    // The buttons go away with the question sent: focus must not fall to <body>, where Escape does nothing.
    // On touch screens the panel takes it, as focusing the text box would throw the keyboard over the answer.
    const panel = (e.currentTarget as HTMLElement).closest<HTMLElement>('.panel');
    const coarse = matchMedia('(pointer: coarse)').matches;
    (coarse ? panel : panel?.querySelector('textarea') || panel)?.focus();
    actions.send(text);
  };
  return (
    <div class="starters" role="group" aria-label={strings.starters}>
      {starters.map((text) => (
        <button key={text} type="button" class="btn" dir="auto" onClick={(e) => ask(e, text)}>
          {text}
        </button>
      ))}
    </div>
  );
}
