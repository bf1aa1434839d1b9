import { cleanup, render } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pickStrings } from './i18n.js';
import { loadMarkdown, markdown } from './markdown.js';
import { unbroken } from './unbroken.js';

const t = pickStrings();
const kept = (el: Element) => [...el.querySelectorAll('.nowrap')].map((s) => s.textContent);

afterEach(cleanup);

describe('codes kept on one line', () => {
  it('wraps letters-hyphen-digits runs in a nowrap span and leaves the text as written', () => {
    const { container } = render(<p>{unbroken('Order NO-48213 (ref AB-12-C7, 2026-11-28) is a well-known case-by-case thing')}</p>);
    expect(kept(container)).toEqual(['NO-48213', 'AB-12-C7', '2026-11-28']);
    expect(container.textContent).toBe('Order NO-48213 (ref AB-12-C7, 2026-11-28) is a well-known case-by-case thing');
  });

  it('leaves text without such a run, and a run too long for a narrow bubble, alone', () => {
    expect(unbroken('a well-known word')).toBe('a well-known word');
    const long = 'X-123456789012345678901234567890';
    expect(unbroken(`see ${long}`)).toBe(`see ${long}`);
  });

  it('applies to formatted answers (text and inline code) and to their plain text before the renderer comes', async () => {
    // Before the renderer has come, the answer shows as its plain text.
    const before = render(<div>{markdown('Your order NO-48213 ships.\n\nAsk about NO-1', t)}</div>).container;
    expect(kept(before)).toEqual(['NO-48213', 'NO-1']);
    await loadMarkdown();
    const { container } = render(<div>{markdown('Your order **NO-48213** ships; code `AB-7`.', t)}</div>);
    expect(kept(container)).toEqual(['NO-48213', 'AB-7']);
    expect(container.querySelector('strong .nowrap')).toBeTruthy();
    expect(container.querySelector('code .nowrap')).toBeTruthy();
  });
});
