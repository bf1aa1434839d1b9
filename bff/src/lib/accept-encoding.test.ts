import { describe, expect, it } from 'vitest';
import { pickEncoding } from './accept-encoding.js';

describe('pickEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip;q=0', undefined],
    ['br;q=0, gzip', 'gzip'],
    ['br; q=0.000, gzip;q=0.5', 'gzip'],
    ['BR;Q=0.1', 'br'],
    ['gzip;q=0.2, br;q=1', 'br'], // br is preferred among the accepted, whatever the weights
    ['*', 'br'],
    ['*;q=0', undefined],
    ['br;q=0, *', 'gzip'],
    ['gzip;q=0, *;q=0.5', 'br'],
    ['identity', undefined],
    ['', undefined],
    [undefined, undefined],
    ['brotli, xgzip', undefined], // whole names only
    ['br;q=2, gzip;q=abc', undefined], // an unreadable weight refuses rather than guesses
  ])('%j → %s', (header, coding) => {
    expect(pickEncoding(header, ['br', 'gzip'])).toBe(coding);
  });

  it('offers only the codings the file is kept in', () => {
    expect(pickEncoding('br, gzip', ['gzip'])).toBe('gzip');
    expect(pickEncoding('br', ['gzip'])).toBeUndefined();
  });
});
