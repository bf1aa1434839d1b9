import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pickStrings } from './i18n.js';
import { loadMarkdown, markdown, PLAIN_STEP } from './markdown.js';

const t = pickStrings();
const md = (text: string) => render(<div>{markdown(text, t)}</div>).container.firstElementChild as HTMLElement;

beforeAll(async () => {
  await loadMarkdown();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('markdown (CommonMark and GFM)', () => {
  it('renders bold, italic, strikethrough, inline code and hard line breaks', () => {
    const out = md('**Free** over _€75_ and *fast*, ~~€5~~\\\nuse `NO-48213`');
    expect(out.querySelector('strong')!.textContent).toBe('Free');
    expect([...out.querySelectorAll('em')].map((e) => e.textContent)).toEqual(['€75', 'fast']);
    expect(out.querySelector('del')!.textContent).toBe('€5');
    expect(out.querySelector('code')!.textContent).toBe('NO-48213');
    expect(out.querySelectorAll('p')).toHaveLength(1);
  });

  it('leaves underscores inside words and lone stars alone, in text, code and URLs', () => {
    const out = md('call snake_case_name, 5 * 3, `a_b_c` https://shop.example/a_b_c and [x_y](https://shop.example/x_y)\n\n```\nmy_var_2\n```');
    expect(out.querySelector('em')).toBeNull();
    expect(out.querySelector('p')!.textContent).toBe('call snake_case_name, 5 * 3, a_b_c https://shop.example/a_b_c and x_y');
    expect([...out.querySelectorAll('a')].map((a) => a.getAttribute('href'))).toEqual(['https://shop.example/a_b_c', 'https://shop.example/x_y']);
    expect(out.querySelector('pre')!.textContent).toBe('my_var_2');
    expect(md('_fast_ and __sure__').querySelector('em')!.textContent).toBe('fast');
  });

  it('renders headings below the panel title, without ids that two answers would share', () => {
    const out = md('# Returns\n\nText\n\n## How\n\n### Detail');
    expect(screen.getByRole('heading', { name: 'Returns' }).tagName).toBe('H3');
    expect(screen.getByRole('heading', { name: 'How' }).tagName).toBe('H4');
    expect(screen.getByRole('heading', { name: 'Detail' }).tagName).toBe('H5');
    expect(out.querySelector('[id]')).toBeNull();
  });

  it('makes the topmost heading an h3 whatever its level, so none is skipped; a "#" in code does not count', () => {
    md('## Which boots?\n\n```sh\n# a comment\n```\n\n#### Sizes');
    expect(screen.getByRole('heading', { name: 'Which boots?' }).tagName).toBe('H3');
    expect(screen.getByRole('heading', { name: 'Sizes' }).tagName).toBe('H5');
    cleanup();
    // A setext heading is a heading like any other: "Setext" (level 1) is the topmost.
    md('## Which boots?\n\nSetext\n======');
    expect(screen.getByRole('heading', { name: 'Which boots?' }).tagName).toBe('H4');
    expect(screen.getByRole('heading', { name: 'Setext' }).tagName).toBe('H3');
  });

  it('renders nested lists, numbered lists and task lists', () => {
    const out = md('1. Open orders\n2. Choose **Return**\n   - print the label\n   - pack it\n\n- [x] paid\n- [ ] shipped');
    expect(out.querySelectorAll('ol > li')).toHaveLength(2);
    expect([...out.querySelectorAll('ol li ul > li')].map((li) => li.textContent)).toEqual(['print the label', 'pack it']);
    expect(out.querySelector('ol strong')!.textContent).toBe('Return');
    expect([...out.querySelectorAll('ol ~ ul > li')].map((li) => li.textContent)).toEqual(['☑ paid', '☐ shipped']);
    expect(out.querySelector('input')).toBeNull();
    expect(md('Reply [x] or [ ]').textContent).toBe('Reply [x] or [ ]');
  });

  it('renders block quotes', () => {
    expect(md('> Keep the receipt.\n> It is proof.').querySelector('blockquote')!.textContent).toContain('Keep the receipt.');
  });

  it('renders a table in a named group a keyboard can reach, so it can scroll sideways', () => {
    md('| Size | EU |\n|---|---:|\n| M | 42 |\n| L | 44 |');
    const region = screen.getByRole('group', { name: 'Table' });
    expect(region.tabIndex).toBe(0);
    expect([...region.querySelectorAll('th')].map((th) => th.textContent?.trim())).toEqual(['Size', 'EU']);
    expect(region.querySelectorAll('tbody tr')).toHaveLength(2);
  });

  it('renders fenced code verbatim', () => {
    const out = md('```js\n**not bold** <b>\n```');
    expect(out.querySelector('pre code')!.textContent).toBe('**not bold** <b>');
    expect(out.querySelector('strong, b')).toBeNull();
  });
});

describe('markdown: no HTML path, links through the URL gate', () => {
  it('shows HTML as text: no element, no handler', () => {
    const out = md('<img src=x onerror="alert(1)"> <script>alert(2)</script>\n\n<img src=x onerror=alert(1)>');
    expect(out.querySelector('img, script')).toBeNull();
    expect(out.textContent).toBe('<img src=x onerror="alert(1)"> <script>alert(2)</script><img src=x onerror=alert(1)>');
  });

  it('links http, https and mailto in a new tab; never javascript or data', () => {
    const out = md('[tracking](https://shop.example/t/1), [mail](mailto:help@shop.example), [run](javascript:alert(1)) [y](data:text/html,hi) https://shop.example/faq.');
    const tracking = screen.getByRole('link', { name: 'tracking' });
    expect(tracking.getAttribute('href')).toBe('https://shop.example/t/1');
    expect(tracking.getAttribute('target')).toBe('_blank');
    expect(tracking.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.getByRole('link', { name: 'mail' }).getAttribute('href')).toBe('mailto:help@shop.example');
    expect(screen.getByRole('link', { name: 'https://shop.example/faq' })).toBeTruthy();
    expect(screen.getAllByRole('link')).toHaveLength(3);
    expect(out.textContent).toBe('tracking, mail, run y https://shop.example/faq.');
  });

  it('never links URLs with credentials or tricks in them, however they are written', () => {
    const out = md('[a](https://user:pw@shop.example/) [b](java\tscript:alert(1)) [c](//evil.example/) <javascript:alert(1)> [d][r]\n\n[r]: javascript:alert(1)');
    expect(out.querySelector('a')).toBeNull();
    expect(out.textContent).toMatch(/^a .*b.* c javascript:alert\(1\) d$/);
  });

  it('turns an image into a link to it, labelled with its alt text, and loads nothing', () => {
    const out = md('![Size chart](https://shop.example/chart.png) ![pixel](javascript:alert(1))');
    expect(out.querySelector('img')).toBeNull();
    expect(screen.getByRole('link', { name: 'Size chart' }).getAttribute('href')).toBe('https://shop.example/chart.png');
    expect(out.textContent).toBe('Size chart pixel');
  });
});

describe('markdown: the code block copy button', () => {
  it('writes the code to the clipboard and says so', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    md('```\nnpm i parley\n```');
    fireEvent.click(screen.getByRole('button', { name: 'Copy code' }));
    expect(writeText).toHaveBeenCalledWith('npm i parley');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copied' })).toBeTruthy());
  });

  it('takes its words from the strings', () => {
    render(<div>{markdown('```\nx\n```', pickStrings(undefined, { copyCode: 'Kopieren', table: 'Größen' }))}</div>);
    expect(screen.getByRole('button', { name: 'Kopieren' })).toBeTruthy();
  });
});

describe('markdown: bounds and failures', () => {
  it('shows a message past its limits as its plain text, line breaks kept: length, nesting, table cells', async () => {
    const { LIMITS } = await import('./markdown-render.js');
    const cases = {
      long: '**x** '.repeat(LIMITS.chars / 6 + 1),
      quotes: '>'.repeat(2000) + ' deep',
      list: Array.from({ length: 40 }, (_, i) => ' '.repeat(i * 2) + '- item').join('\n'),
      table: ['| a | b |', '|---|---|', ...Array.from({ length: LIMITS.cells }, (_, i) => `| ${i} | x |`)].join('\n'),
      links: '[a]('.repeat(20_000),
    };
    for (const [name, text] of Object.entries(cases)) {
      const out = md(text);
      // A long one is cut; "Show more" draws the next part until all of it shows.
      for (let shown = PLAIN_STEP; shown < text.length; shown += PLAIN_STEP) {
        expect(out.querySelector('p.plain')?.textContent, name).toBe(`${text.slice(0, shown)}…`);
        fireEvent.click(screen.getByRole('button', { name: 'Show more' }));
      }
      expect(out.querySelector('p.plain')?.textContent, name).toBe(text);
      expect(screen.queryByRole('button', { name: 'Show more' }), name).toBeNull();
      expect(out.querySelector('strong, blockquote, li, table, a'), name).toBeNull();
      cleanup();
    }
  });

  it('cuts a long plain text between characters, never inside a surrogate pair', () => {
    const text = `${'a'.repeat(PLAIN_STEP - 1)}😀${'b'.repeat(10)}`;
    const out = md(`${text}\n${'>'.repeat(2000)}`);
    expect(out.querySelector('p.plain')?.textContent).toBe(`${'a'.repeat(PLAIN_STEP - 1)}…`);
  });

  it('renders up to its limits as Markdown', () => {
    const out = md(`${'>'.repeat(8)} deep\n\n${Array.from({ length: 6 }, (_, i) => ' '.repeat(i * 2) + '- item').join('\n')}`);
    expect(out.querySelectorAll('blockquote')).toHaveLength(8);
    expect(out.querySelectorAll('li')).toHaveLength(6);
  });

  it('a message whose drawing fails falls back to its text, and the messages beside it still draw', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const writeText = vi.fn(async () => {});
    // A code block's component that throws (here: a clipboard whose getter fails) stands for any failure inside a message.
    vi.stubGlobal('navigator', {
      ...navigator,
      get clipboard(): never {
        throw new Error('broken');
      },
    });
    const out = render(
      <div>
        {markdown('**first**', t)}
        {markdown('```\nboom\n```', t)}
        {markdown('**third**', t)}
      </div>,
    ).container.firstElementChild as HTMLElement;
    await waitFor(() => expect(out.querySelector('p.plain')?.textContent).toBe('```\nboom\n```'));
    expect([...out.querySelectorAll('strong')].map((s) => s.textContent)).toEqual(['first', 'third']);
    expect(warn).toHaveBeenCalled();
    expect(writeText).not.toHaveBeenCalled();
  });

  it('while streaming, holds back marks not yet closed', () => {
    const out = render(<div>{markdown('Use **bo', t, true)}</div>).container.firstElementChild as HTMLElement;
    expect(out.textContent).toBe('Use');
  });
});

describe('markdown: before its chunk has come', () => {
  it('shows the text in paragraphs, then the formatting once the renderer is there', async () => {
    vi.resetModules();
    const fresh = await import('./markdown.js');
    const out = render(<div>{fresh.markdown('Hello **there**\nfriend\n\nSecond', t)}</div>).container.firstElementChild as HTMLElement;
    expect([...out.querySelectorAll('p')].map((p) => p.textContent)).toEqual(['Hello **there**\nfriend', 'Second']);
    await waitFor(() => expect(out.querySelector('strong')?.textContent).toBe('there'));
    expect(out.querySelectorAll('p')).toHaveLength(2);
  });
});
