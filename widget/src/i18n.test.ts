import { describe, expect, it } from 'vitest';
import { localized, textDir } from './i18n.js';

describe('localized: the operator’s title, greeting or starters for a language', () => {
  const byLanguage = { en: 'Help', de: 'Hilfe' };

  it('a plain string is for every language', () => {
    expect(localized('Help', 'de')).toBe('Help');
  });

  it('picks the entry of the language; languages without shipped strings fall back to the English entry', () => {
    expect(localized(byLanguage, 'de')).toBe('Hilfe');
    expect(localized(byLanguage, 'ja')).toBe('Help');
  });

  it('a shipped language without an entry gets nothing, so the widget’s own string in that language', () => {
    expect(localized(byLanguage, 'fr')).toBeUndefined();
    expect(localized(undefined, 'en')).toBeUndefined();
  });

  it('picks a list (the starters) the same way: a plain list is for every language', () => {
    expect(localized(['Sizes?'], 'de')).toEqual(['Sizes?']);
    expect(localized({ en: ['Sizes?'], de: ['Größen?'] }, 'de')).toEqual(['Größen?']);
    expect(localized({ en: ['Sizes?'], de: ['Größen?'] }, 'ja')).toEqual(['Sizes?']);
    expect(localized({ en: ['Sizes?'] }, 'fr')).toBeUndefined();
  });
});

describe('textDir: the direction of a text by its first strong letter', () => {
  it('Arabic and Hebrew read right to left, Latin, Greek and Cyrillic left to right', () => {
    expect(['اكتب رسالة…', 'הקלד הודעה…', '…Type a message', 'Écrivez…', 'Напишите…'].map(textDir)).toEqual(['rtl', 'rtl', 'ltr', 'ltr', 'ltr']);
  });

  it('leading digits and punctuation do not decide; a text without letters is left to right', () => {
    expect(['12 رسالة', '«Hello»', '42'].map(textDir)).toEqual(['rtl', 'ltr', 'ltr']);
  });
});
