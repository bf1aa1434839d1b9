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

  it('handles a body nested 200,000 deep without recursion', () => {
    expect(jsonDepthWithin(bytes('['.repeat(200_000) + ']'.repeat(200_000)))).toBe(false);
  });
});
