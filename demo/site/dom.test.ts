// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain browser module of the demo pages, without types
import { inlineMarkdown } from './dom.js';

const html = (text: string) => {
  const p = document.createElement('p');
  p.append(...(inlineMarkdown(text) as Node[]));
  return p.innerHTML;
};

describe('inlineMarkdown (operator console)', () => {
  it('shows the agent\'s bold, italic and code as such', () => {
    expect(html('choose **Talk to a person** or type `human`, _if you like_')).toBe(
      'choose <strong>Talk to a person</strong> or type <code>human</code>, <em>if you like</em>',
    );
  });

  it('keeps everything else as text, markup included', () => {
    expect(html('<img src=x onerror=alert(1)> snake_case_name 2*3*4')).toBe('&lt;img src=x onerror=alert(1)&gt; snake_case_name 2*3*4');
  });
});
