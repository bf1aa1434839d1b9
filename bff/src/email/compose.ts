import { summarizeBadge } from '../../../shared/badge.js';
import type { LocalizedText } from '../../../shared/types.js';
import type { Message } from '../../../shared/types.js';
import { escapeHtml, markdownHtml } from './markdown.js';
import { directionOf, emailLanguage, fill, stringsOf } from './strings.js';

/** One email to a visitor, ready for the mail library. */
export interface Composed {
  subject: string;
  text: string;
  html: string;
  language: string;
  /** The widget's title in that language: the sender's name. */
  title: string;
}

export interface ComposeInput {
  /** The operators' messages the visitor has not seen, oldest first. */
  messages: readonly Message[];
  locale: string | undefined;
  /** WIDGET_TITLE: the sender's name and the subject's. */
  title: LocalizedText | undefined;
  /** The page of the conversation with `#parley-resume=<token>`; without a known page, the email has no continue link. */
  continueUrl: string | undefined;
  unsubscribeUrl: string;
}

/** The email's title in the visitor's language: WIDGET_TITLE's entry for it, else its English or first one. */
export function titleIn(title: LocalizedText | undefined, language: string): string {
  if (title === undefined) return 'Chat';
  if (typeof title === 'string') return title;
  return title[language] ?? title.en ?? Object.values(title)[0] ?? 'Chat';
}

/** Plain text and HTML of one email: who wrote what, the continue link and the unsubscribe link. */
export function composeEmail(input: ComposeInput): Composed {
  const language = emailLanguage(input.locale);
  const strings = stringsOf(language);
  const title = titleIn(input.title, language);
  const site = new URL(input.continueUrl ?? input.unsubscribeUrl).host;
  const authorOf = (m: Message) => m.author?.name ?? m.operatorName ?? strings.operator;
  const bodyOf = (m: Message) => [m.text, m.badge && summarizeBadge(m.badge)].filter((part): part is string => !!part);
  const intro = fill(strings.intro, { n: input.messages.length });
  const why = fill(strings.why, { site });

  const text = [
    intro,
    '',
    ...input.messages.flatMap((m) => [`${authorOf(m)}:`, ...bodyOf(m), '']),
    ...(input.continueUrl === undefined ? [] : [`${strings.continue}: ${input.continueUrl}`, '']),
    '-- ',
    why,
    `${strings.unsubscribe}: ${input.unsubscribeUrl}`,
    '',
  ].join('\n');

  const dir = directionOf(language);
  const messageHtml = (m: Message) => {
    const parts = [m.text === undefined ? '' : markdownHtml(m.text), m.badge === undefined ? '' : `<p>${escapeHtml(summarizeBadge(m.badge))}</p>`];
    return `<div style="margin:0 0 16px;padding:12px 16px;border-radius:8px;background:#f3f4f6"><p style="margin:0 0 4px;font-weight:600">${escapeHtml(authorOf(m))}</p>${parts.join('')}</div>`;
  };
  const html = [
    '<!doctype html>',
    `<html lang="${language}" dir="${dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>`,
    '<body style="margin:0;padding:24px;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;font-size:16px;line-height:1.5;color:#111827;background:#ffffff">',
    `<main style="max-width:600px;margin:0 auto"><h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>`,
    `<p>${escapeHtml(intro)}</p>`,
    ...input.messages.map(messageHtml),
    input.continueUrl === undefined
      ? ''
      : `<p style="margin:24px 0"><a href="${escapeHtml(input.continueUrl)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:#1d4ed8;color:#ffffff;text-decoration:none;font-weight:600">${escapeHtml(strings.continue)}</a></p>`,
    `<footer style="font-size:14px;color:#4b5563"><p>${escapeHtml(why)}</p><p><a href="${escapeHtml(input.unsubscribeUrl)}" style="color:#1d4ed8">${escapeHtml(strings.unsubscribe)}</a></p></footer>`,
    '</main></body></html>',
  ].join('\n');

  return { subject: fill(strings.subject, { title }), text, html, language, title };
}
