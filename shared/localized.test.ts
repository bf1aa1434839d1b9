import { describe, expect, it } from 'vitest';
import { textIn } from './localized.js';

describe('textIn', () => {
  const consent = { en: 'You may email me.', de: 'Sie dürfen mir schreiben.', he: 'מותר לכתוב לי.' };

  it('takes the language of a full tag, in any case', () => {
    expect(textIn(consent, 'de-AT')).toBe('Sie dürfen mir schreiben.');
    expect(textIn(consent, 'HE')).toBe('מותר לכתוב לי.');
  });

  it('falls back to English, then to the first entry, so a consent text is never missing', () => {
    expect(textIn(consent, 'fr-FR')).toBe('You may email me.');
    expect(textIn(consent, undefined)).toBe('You may email me.');
    expect(textIn({ de: 'Ja', fr: 'Oui' }, 'ar')).toBe('Ja');
  });

  it('gives a plain text to everyone', () => {
    expect(textIn('You may email me.', 'ar')).toBe('You may email me.');
  });
});
