import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Badge } from '../../../shared/types.js';
import { flush, freshBrowserEachTest, makeCtx, mockEventSource, mockFetch, sessionBody } from '../../test/support.js';
import { BadgeView } from '../badges/index.js';
import { loadParts } from '../ui/Part.js';

async function show(badge: Badge, last = true, dir?: 'rtl') {
  const api = mockFetch({ 'POST /api/session': { status: 201, body: sessionBody() } });
  const { ctx } = await makeCtx();
  if (dir) ctx.dir = dir;
  await loadParts(); // carousels and lists are drawn from the parts chunk (badges/rare.tsx: badges.test.tsx)
  render(<BadgeView badge={badge} ctx={ctx} last={last} />);
  return { api, ctx };
}

freshBrowserEachTest(cleanup);

describe('buttons', () => {
  it('a postback button sends its value as the user message', async () => {
    const { api, ctx } = await show({
      type: 'buttons',
      text: 'What can I do?',
      buttons: [{ label: 'Track my order', action: 'postback', value: 'Where is my order?' }],
    });
    expect(screen.getByText('What can I do?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Track my order' }));
    expect(ctx.store.state.messages.value.map((m) => [m.role, m.text])).toEqual([['user', 'Where is my order?']]);
    await flush();
    expect(api.to('POST', '/api/session')[0]!.body.text).toBe('Where is my order?');
  });

  it('a link button opens in a new tab without opener; an unsafe one is never a link', async () => {
    await show({
      type: 'buttons',
      buttons: [
        { label: 'Visit our shop', action: 'link', value: 'https://shop.example/' },
        { label: 'Evil', action: 'link', value: 'javascript:alert(1)' },
      ],
    });
    const link = screen.getByRole('link', { name: /Visit our shop/ });
    expect(link.getAttribute('href')).toBe('https://shop.example/');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.queryByRole('link', { name: /Evil/ })).toBeNull();
    expect(document.querySelector('a[href^="javascript"]')).toBeNull();
  });
});

describe('quick replies', () => {
  const b: Badge = {
    type: 'quick_replies',
    text: 'Pick one',
    replies: [
      { label: 'Shipping', action: 'postback', value: 'How much is shipping?' },
      { label: 'Returns', action: 'postback', value: 'How do returns work?' },
    ],
  };
  it('shows its replies while it is the last message, and a click sends the label the visitor saw', async () => {
    const { ctx } = await show(b);
    fireEvent.click(screen.getByRole('button', { name: 'Returns' }));
    expect(ctx.store.state.messages.value[0]!.text).toBe('Returns');
  });
  it('choosing one moves keyboard focus to the composer, not to <body> when the replies go', async () => {
    mockFetch({ 'POST /api/session': { status: 201, body: sessionBody() } });
    const { ctx } = await makeCtx();
    render(
      <section class="panel" tabIndex={-1}>
        <BadgeView badge={b} ctx={ctx} last />
        <textarea aria-label="Message" />
      </section>,
    );
    const reply = screen.getByRole('button', { name: 'Shipping' });
    reply.focus();
    fireEvent.click(reply);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
  });
  it('hides them once a later message exists (the text stays)', async () => {
    await show(b, false);
    expect(screen.getByText('Pick one')).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('cards, carousel, list', () => {
  const card = (n: number) => ({
    title: 'Pack ' + n,
    subtitle: '€149',
    imageUrl: `https://cdn.example/${n}.svg`,
    url: 'https://shop.example/p/' + n,
    buttons: [{ label: 'Is it in stock? ' + n, action: 'postback' as const, value: 'stock ' + n }],
  });

  it('a card has its image, linked title, subtitle and buttons', async () => {
    const { ctx } = await show({ type: 'card', card: card(1) });
    expect(screen.getByRole('link', { name: /Pack 1/ }).getAttribute('href')).toBe('https://shop.example/p/1');
    expect(screen.getByText('€149')).toBeTruthy();
    expect(document.querySelector('img')!.getAttribute('src')).toBe('https://cdn.example/1.svg');
    fireEvent.click(screen.getByRole('button', { name: 'Is it in stock? 1' }));
    expect(ctx.store.state.messages.value[0]!.text).toBe('stock 1');
  });

  it('a carousel labels its slides, scrolls with prev/next and arrow keys', async () => {
    await show({ type: 'carousel', text: 'Bestsellers', cards: [card(1), card(2), card(3)] });
    const carousel = screen.getByRole('group', { name: 'Bestsellers' });
    expect(within(carousel).getByRole('group', { name: '2 of 3' })).toBeTruthy();
    const scroller = carousel.querySelector('.track') as HTMLElement;
    const scrollBy = vi.fn();
    scroller.scrollBy = scrollBy as unknown as HTMLElement['scrollBy'];
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    fireEvent.keyDown(scroller, { key: 'ArrowRight' });
    const lefts = scrollBy.mock.calls.map(([o]) => Math.sign((o as ScrollToOptions).left!));
    expect(lefts).toEqual([1, -1, 1]);
    expect(scroller.tabIndex).toBe(0);
  });

  it('a carousel shows where the visitor is ("1 of 3") and its buttons say so at the ends', async () => {
    await show({ type: 'carousel', text: 'Bestsellers', cards: [card(1), card(2), card(3)] });
    const carousel = screen.getByRole('group', { name: 'Bestsellers' });
    (carousel.querySelector('.track') as HTMLElement).scrollBy = () => {};
    const prev = screen.getByRole('button', { name: 'Previous' });
    const next = screen.getByRole('button', { name: 'Next' });
    expect(within(carousel).getByText('1 of 3')).toBeTruthy();
    expect([prev.getAttribute('aria-disabled'), next.getAttribute('aria-disabled')]).toEqual(['true', 'false']);
    fireEvent.click(next);
    // A live region: a screen reader hears the new position, where the pressed button keeps focus.
    expect(within(carousel).getByText('2 of 3').getAttribute('aria-live')).toBe('polite');
    fireEvent.click(next);
    fireEvent.click(next); // at the end: stays on the last card
    expect(within(carousel).getByText('3 of 3')).toBeTruthy();
    expect([prev.getAttribute('aria-disabled'), next.getAttribute('aria-disabled')]).toEqual(['false', 'true']);
    fireEvent.click(prev);
    expect(within(carousel).getByText('2 of 3')).toBeTruthy();
  });

  // Home and End in reading order: right to left, the last card lies leftwards.
  for (const [dir, toEnd] of [[undefined, 2], ['rtl', -2]] as const) {
    it(`a carousel goes to its first and last card with Home and End (${dir ?? 'ltr'})`, async () => {
      await show({ type: 'carousel', text: 'Bestsellers', cards: [card(1), card(2), card(3)] }, true, dir);
      const carousel = screen.getByRole('group', { name: 'Bestsellers' });
      const scroller = carousel.querySelector('.track') as HTMLElement;
      const scrollBy = vi.fn();
      scroller.scrollBy = scrollBy as unknown as HTMLElement['scrollBy'];
      fireEvent.keyDown(scroller, { key: 'End' });
      expect(within(carousel).getByText('3 of 3')).toBeTruthy();
      fireEvent.keyDown(scroller, { key: 'Home' });
      expect(within(carousel).getByText('1 of 3')).toBeTruthy();
      // In steps of a card (its width, 240 px where there is no layout, and the 10 px gap).
      expect(scrollBy.mock.calls.map(([o]) => (o as ScrollToOptions).left! / 250)).toEqual([toEnd, -toEnd]);
    });
  }

  it('a card that takes focus from the keyboard comes into view, and the count names it', async () => {
    await show({ type: 'carousel', text: 'Bestsellers', cards: [card(1), card(2), card(3)] });
    const carousel = screen.getByRole('group', { name: 'Bestsellers' });
    const track = carousel.querySelector('.track') as HTMLElement;
    const slides = [...track.children] as HTMLElement[];
    // Laid out as a browser would: the track 250 px wide at x=0, cards 240 px apart.
    const at = (left: number) => () => ({ left, right: left + 230, top: 0, bottom: 100, width: 230, height: 100 }) as DOMRect;
    track.getBoundingClientRect = at(0);
    slides.forEach((slide, i) => (slide.getBoundingClientRect = at(i * 240)));
    const scrollBy = vi.fn();
    track.scrollBy = scrollBy as unknown as HTMLElement['scrollBy'];
    act(() => screen.getByRole('button', { name: 'Is it in stock? 3' }).focus());
    expect(within(carousel).getByText('3 of 3')).toBeTruthy();
    act(() => screen.getByRole('link', { name: /Pack 2/ }).focus());
    expect(within(carousel).getByText('2 of 3')).toBeTruthy();
    // Only the track scrolls, to each card's start.
    expect(scrollBy.mock.calls.map(([o]) => (o as ScrollToOptions).left)).toEqual([480, 240]);
  });

  it('a list shows items with subtitles and links', async () => {
    await show({
      type: 'list',
      text: 'Checklist',
      items: [{ title: 'Water' , subtitle: '2 litres' }, { title: 'First aid', url: 'https://shop.example/aid' }],
    });
    const items = within(screen.getByRole('list')).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(['Water2 litres', expect.stringContaining('First aid')]);
    expect(screen.getByRole('link', { name: /First aid/ }).getAttribute('href')).toBe('https://shop.example/aid');
  });
});

describe('media and fallback', () => {
  it('an image is named by its alt text (on the button that enlarges it) and has its caption', async () => {
    await show({ type: 'image', url: 'https://cdn.example/map.svg', alt: 'Trail map', caption: '9.5 km loop' });
    expect(screen.getByRole('button', { name: 'Enlarge image: Trail map' }).querySelector('img')!.getAttribute('src')).toBe('https://cdn.example/map.svg');
    expect(screen.getByText('9.5 km loop')).toBeTruthy();
  });

  it('a file is a download link with its name and size', async () => {
    await show({ type: 'file', url: 'https://cdn.example/guide.txt', name: 'size-guide.txt', size: 2560, mimeType: 'text/plain' });
    const link = screen.getByRole('link', { name: /size-guide\.txt/ });
    expect(link.getAttribute('download')).toBe('size-guide.txt');
    expect(link.textContent).toContain('2.5 kB'); // in the visitor's units and digits, as the upload chips
  });

  it('an unsupported element shows its summary as text', async () => {
    await show({ type: 'unsupported', summary: 'A date picker (not supported here)' });
    expect(screen.getByText('A date picker (not supported here)')).toBeTruthy();
  });
});
