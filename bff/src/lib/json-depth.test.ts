import { describe, expect, it } from 'vitest';
import { jsonDepthWithin } from './json-depth.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('jsonDepthWithin', () => {
  it('counts nested objects and arrays up to the limit, and refuses one level more', () => {
    expect(jsonDepthWithin(bytes('{"a":[{"b":1}]}'), 3)).toBe(true);
    expect(jsonDepthWithin(bytes('{"a":[{"b":[1]}]}'), 3)).toBe(false);
    expect(jsonDepthWithin(bytes('[]'.repeat(1000)), 1)).toBe(true); // siblings, not nesting
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonDepthWithin(bytes(JSON.stringify({ text: '[[[[{{{{' })), 1)).toBe(true);
    expect(jsonDepthWithin(bytes(JSON.stringify({ text: 'say \\"[[[[" and "{{{"' })), 1)).toBe(true);
    expect(jsonDepthWithin(bytes('{"a":"\\\\","b":[[1]]}'), 2)).toBe(false); // an escaped backslash ends before the quote
  });

  it('reads a plain Uint8Array as it reads a Buffer, counted or scanned', () => {
    const view = (text: string) => {
      const b = bytes(`xx${text}`); // a view that starts inside its buffer
      return new Uint8Array(b.buffer, b.byteOffset + 2, b.length - 2);
    };
    expect(jsonDepthWithin(view('{"a":[{"b":1}]}'), 3)).toBe(true); // three openings: within by count
    expect(jsonDepthWithin(view('{"a":[{"b":[1]}]}'), 3)).toBe(false); // four: scanned, and too deep
    expect(jsonDepthWithin(view(JSON.stringify({ text: '[[[[' })), 1)).toBe(true); // four: scanned, all in a string
  });

  it('handles a body nested 200,000 deep without recursion', () => {
    expect(jsonDepthWithin(bytes('['.repeat(200_000) + ']'.repeat(200_000)))).toBe(false);
  });
});
