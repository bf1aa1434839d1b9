import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { markdown } from './markdown.js';

const md = (text: string) => render(<div data-testid="out">{markdown(text)}</div>).getByTestId('out');

afterEach(cleanup);

describe('markdown', () => {
  it('renders bold, italic, inline code and line breaks', () => {
    const out = md('**Free** over _€75_ and *fast*\nuse `NO-48213`');
    expect(out.querySelector('strong')!.textContent).toBe('Free');
    expect([...out.querySelectorAll('em')].map((e) => e.textContent)).toEqual(['€75', 'fast']);
    expect(out.querySelector('code')!.textContent).toBe('NO-48213');
    expect(out.querySelectorAll('p')).toHaveLength(1);
    expect(out.querySelectorAll('br')).toHaveLength(1);
  });

  it('leaves underscores inside words alone', () => {
    expect(md('call snake_case_name now').querySelector('em')).toBeNull();
  });

  it('renders bullet and numbered lists', () => {
    const out = md('Steps:\n\n1. Open orders\n2. Choose **Return**\n\n- a\n- b');
    expect(out.querySelectorAll('ol > li')).toHaveLength(2);
    expect(out.querySelectorAll('ul > li')).toHaveLength(2);
    expect(out.querySelector('ol strong')!.textContent).toBe('Return');
  });

  it('renders fenced code verbatim', () => {
    const out = md('```\n**not bold** <b>\n```');
    expect(out.querySelector('pre code')!.textContent).toBe('**not bold** <b>');
    expect(out.querySelector('strong, b')).toBeNull();
  });

  it('links http, https and mailto in a new tab; never javascript or data', () => {
    const out = md('[tracking](https://shop.example/t/1), [mail](mailto:help@shop.example), [x](javascript:alert(1)) [y](data:text/html,hi) https://shop.example/faq.');
    expect(screen.getByRole('link', { name: 'tracking' }).getAttribute('href')).toBe('https://shop.example/t/1');
    expect(screen.getByRole('link', { name: 'tracking' }).getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: 'mail' }).getAttribute('href')).toBe('mailto:help@shop.example');
    expect(screen.getByRole('link', { name: 'https://shop.example/faq' })).toBeTruthy();
    expect(screen.getAllByRole('link')).toHaveLength(3);
    expect(out.textContent).toBe('tracking, mail, x y https://shop.example/faq.');
  });

  it('never links URLs with credentials or tricks in them', () => {
    const out = md('[a](https://user:pw@shop.example/) [b](java\tscript:alert(1)) [c](//evil.example/)');
    expect(out.querySelector('a')).toBeNull();
    expect(out.textContent).toMatch(/^a .* c$/);
  });

  it('shows HTML as text: no element, no handler', () => {
    const out = md('<img src=x onerror="alert(1)"> <script>alert(2)</script>');
    expect(out.querySelector('img, script')).toBeNull();
    expect(out.textContent).toBe('<img src=x onerror="alert(1)"> <script>alert(2)</script>');
  });
});
