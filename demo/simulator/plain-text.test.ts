import { describe, expect, it } from 'vitest';
import { markdownToText } from './plain-text.js';

describe("markdownToText (the console's previews)", () => {
  it('keeps the words of emphasis, code, links and line breaks, without their marks', () => {
    expect(markdownToText('Choose **Talk to a person** or type `human`, _if you like_.  \nOr see [returns](https://x.example/r).')).toBe(
      'Choose Talk to a person or type human, if you like. Or see returns.',
    );
  });

  it('reads headings, lists, quotes, tables and code blocks as running text', () => {
    const answer = '# Sizes\n\n1. Measure *your foot*\n2. Pick ~~half~~ a size up\n\n> Wide fit\n\n| Size | EU |\n|---|---|\n| M | 42 |\n\n```\nsize = 42\n```';
    expect(markdownToText(answer)).toBe('Sizes Measure your foot Pick half a size up Wide fit Size EU M 42 size = 42');
  });

  it('leaves text that only looks like Markdown, and markup, as text', () => {
    expect(markdownToText('snake_case_name costs 5 * 3 <img src=x onerror=alert(1)> \\*literal\\*')).toBe('snake_case_name costs 5 * 3 <img src=x onerror=alert(1)> *literal*');
  });
});
