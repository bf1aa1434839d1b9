// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain browser module of the demo pages, without types
import { markdownNodes } from './markdown.js';

const html = (text: string) => {
  const box = document.createElement('div');
  box.append(...(markdownNodes(text) as Node[]));
  return box.innerHTML;
};

describe('markdownNodes (operator console)', () => {
  it("shows the agent's bold, italic and code as such", () => {
    expect(html('choose **Talk to a person** or type `human`, _if you like_')).toContain(
      '<strong>Talk to a person</strong> or type <code>human</code>, <em>if you like</em>',
    );
  });

  it('keeps everything else as text, markup included, and links only to http(s)', () => {
    const out = html('<img src=x onerror=alert(1)> snake_case_name 2*3*4 [x](javascript:alert(1))');
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).toContain('snake_case_name'); // intraword underscores are not emphasis (CommonMark)
    expect(out).not.toMatch(/<img|href="javascript/);
  });
});
