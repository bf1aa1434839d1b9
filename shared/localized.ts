import type { LocalizedText } from './types.js';

/**
 * A text that must always be shown (the consent a visitor gives): a plain one for everyone; of a
 * per-language object the entry for `locale`'s language, else English, else the first entry.
 * Widget and BFF pick with this one rule, so what the BFF records is what the visitor read.
 */
export function textIn(text: LocalizedText, locale: string | undefined): string {
  if (typeof text === 'string') return text;
  const lang = (locale ?? '').slice(0, 2).toLowerCase();
  return text[lang] ?? text.en ?? Object.values(text)[0] ?? '';
}
