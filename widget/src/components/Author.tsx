/**
 * Who wrote a group of messages: the author's picture (or initials on a coloured circle) and name,
 * shown once above the group, and the line before an operator's first message.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Message } from '../../../shared/types.js';
import { colourOf, initials, joinedLine, pictureUrl, whoWrote, type Who } from '../authors.js';
import { langOf, localized } from '../i18n.js';
import type { Ctx } from '../ui/ctx.js';

/** The author of `m` as this widget names them: `init({bot})` over `/api/config` `bot` for the assistant. */
export function whoOf(ctx: Ctx): (m: Pick<Message, 'role' | 'author' | 'operatorName'>) => Who {
  const bot = { ...ctx.store.state.config.value?.bot, ...ctx.options.bot };
  return (m) => whoWrote(m, ctx.strings, bot);
}

/**
 * The name above a group, read once by screen readers; the picture beside it is decoration
 * (`alt=""`, the name is right there), then the message's `time`. The visitor's own messages only say
 * "You" to screen readers.
 */
export function GroupHeader({ who, ctx, time }: { who: Who; ctx: Ctx; time?: ComponentChildren }) {
  if (who.kind === 'user') return <span class="sr-only">{who.name}:</span>;
  return (
    <div class="who">
      <Avatar who={who} bff={ctx.store.bff} />
      <bdi class="name">{who.name}</bdi>
      {who.kind === 'bot' && <AiMark ctx={ctx} />}
      {time}
    </div>
  );
}

/**
 * The assistant's messages say they come from an AI: a visible mark beside its name (WIDGET_AI_LABEL's words in
 * the visitor's language, else the widget's), named "AI assistant" for screen readers. Renamed, never removed:
 * an empty label from anywhere falls back to the widget's own words. A person's messages never carry it.
 */
export function AiMark({ ctx }: { ctx: Ctx }) {
  const label = localized(ctx.store.state.config.value?.aiLabel, langOf(ctx.options.locale))?.trim() || ctx.strings.aiMark.trim() || 'AI';
  return (
    <span class="ai" role="img" aria-label={ctx.strings.aiMarkName} title={ctx.strings.aiMarkName}>
      {label}
    </span>
  );
}

/** A picture, or the initials when there is none or it does not load. */
function Avatar({ who, bff }: { who: Who; bff: string }) {
  const [broken, setBroken] = useState<string | undefined>();
  const src = who.avatarUrl && pictureUrl(who.avatarUrl, bff);
  if (src && broken !== src) return <img class="avatar" src={src} alt="" width={24} height={24} onError={() => setBroken(src)} />;
  return (
    <span class={`avatar av${colourOf(who.name)}`} aria-hidden="true">
      {initials(who.name)}
    </span>
  );
}

/** "Mara Lindqvist joined the conversation", before her first message. */
export function Joined({ who, ctx }: { who: Who; ctx: Ctx }) {
  return <p class="joined">{joinedLine(who, ctx.strings)}</p>;
}
