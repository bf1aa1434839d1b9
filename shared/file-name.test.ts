import { describe, expect, it } from 'vitest';
import { FILE_NAME_MAX, hasUnsafeFileNameChars, safeFileName } from './file-name.js';

describe('the file name rule', () => {
  it('refuses control characters, direction overrides and isolates, and path separators', () => {
    for (const name of ['a\u202Egpj.exe', 'a\u2066b', 'tab\there', 'nul\u0000', '../../etc/passwd', 'c:\\x.txt']) expect(hasUnsafeFileNameChars(name)).toBe(true);
    // Letters of every script, emoji joined by ZWJ and Persian's ZWNJ are names like any other.
    for (const name of ['résumé.pdf', 'فاتورة.pdf', 'קבלה.png', '👩‍💻.png', 'می‌خواهم.txt']) expect(hasUnsafeFileNameChars(name)).toBe(false);
  });

  it('gives a name the rule takes: what it refuses left out, a long one cut before its extension', () => {
    expect(safeFileName('photo\u202Egpj.exe')).toBe('photogpj.exe');
    expect(safeFileName('../a/b.txt')).toBe('..ab.txt');
    expect(safeFileName('\u202E')).toBe('file');
    const long = safeFileName('x'.repeat(300) + '.jpeg');
    expect([long.length, long.endsWith('x.jpeg')]).toEqual([FILE_NAME_MAX, true]);
    expect(hasUnsafeFileNameChars(safeFileName('a\u0007/\\\u2069b'))).toBe(false);
  });
});
