/** What several kinds share: the words before a badge, and the plain-text forms of buttons and cards. */
import type { BadgeButton, BadgeCard, BadgeListItem } from '../../../shared/types.js';
import type { Ctx } from '../ui/ctx.js';
import { markdown } from '../markdown.js';

/** The words before a badge (its `text`), as an answer's bubble. */
export const Lead = ({ text, ctx }: { text?: string | undefined; ctx: Ctx }) =>
  text ? (
    <div class="bubble" dir="auto">
      {markdown(text, ctx.strings)}
    </div>
  ) : null;

/** Buttons by their labels: `[Yes] [No]`. */
export const labels = (list: BadgeButton[] | undefined) => (list?.length ? `[${list.map((b) => b.label).join('] [')}]` : '');

/** A card or a list row: title, subtitle and buttons, a line each. */
export const cardText = (c: BadgeCard | BadgeListItem) => [c.title, c.subtitle, labels(c.buttons)].filter(Boolean).join('\n');

/** Lines of text, the empty ones left out. */
export const lines = (parts: (string | undefined)[], gap = '\n') => parts.filter(Boolean).join(gap);
