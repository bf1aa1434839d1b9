import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { createStore } from '../store.js';
import { BFF, FakeEventSource, flush, freshBrowserEachTest, mockFetch, mountApp, PUBLIC_CONFIG, seedSession, stubAudio } from '../../test/support.js';

freshBrowserEachTest(cleanup);

const more = () => screen.getByRole('button', { name: 'More' });
const item = (name: string) => screen.getByRole('menuitemcheckbox', { name });
const active = () => (document.querySelector('.root')?.getRootNode() as Document).activeElement;

async function openPanel(routes = {}) {
  const mounted = await mountApp(routes);
  fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
  return mounted;
}

describe('the header menu', () => {
  it('is a menu button: opens on its first item, arrows move and wrap, Escape closes it and returns focus, the panel stays', async () => {
    seedSession();
    await openPanel({ 'GET /api/messages': { body: { items: [{ id: '1', role: 'bot', text: 'Hi' }], hasMore: false } } });
    expect(more().getAttribute('aria-haspopup')).toBe('menu');
    expect(more().getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('menu')).toBeNull();

    more().focus();
    fireEvent.keyDown(more(), { key: 'ArrowDown' });
    await act(flush);
    expect(more().getAttribute('aria-expanded')).toBe('true');
    const items = screen.getAllByRole(/menuitem/);
    expect(items.map((i) => i.textContent)).toEqual(['Download transcript', 'Full height', 'Sound']);
    expect(active()).toBe(items[0]);
    const menu = screen.getByRole('menu');
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(active()).toBe(items[1]);
    fireEvent.keyDown(menu, { key: 'End' });
    expect(active()).toBe(items[2]);
    fireEvent.keyDown(menu, { key: 'ArrowDown' });
    expect(active()).toBe(items[0]);
    fireEvent.keyDown(menu, { key: 'ArrowUp' });
    expect(active()).toBe(items[2]);

    fireEvent.keyDown(menu, { key: 'Escape' });
    await act(flush);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(active()).toBe(more());
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('offers the transcript only once there are messages', async () => {
    await openPanel();
    fireEvent.click(more());
    await act(flush);
    expect(screen.queryByRole('menuitem', { name: 'Download transcript' })).toBeNull();
    expect(item('Sound')).toBeTruthy();
  });

  it('saves the transcript as the ended panel does: named after the site`s title, the greeting first', async () => {
    seedSession();
    await openPanel({ 'GET /api/messages': { body: { items: [{ id: '1', role: 'user', text: 'Where is my order?' }], hasMore: false } } });
    let saved: Blob | undefined;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => ((saved = b), 'blob:x'), revokeObjectURL() {} }));
    let file = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      file = this.download;
    });
    fireEvent.click(more());
    await act(flush);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Download transcript' }));
    await waitFor(() => expect(file).toMatch(/^Nimbus help \d{4}-\d\d-\d\d\.txt$/));
    expect(await saved!.text()).toMatch(/^Nimbus help\n.*\n\nAssistant: Hello from the config\n\nYou: Where is my order\?\n\n$/);
  });

  it('Full height widens the floating panel to the window, and is remembered', async () => {
    await openPanel();
    fireEvent.click(more());
    await act(flush);
    expect(item('Full height').getAttribute('aria-checked')).toBe('false');
    fireEvent.click(item('Full height'));
    await act(flush);
    expect(document.querySelector('.root')!.classList.contains('expanded')).toBe(true);
    expect(active()).toBe(more());
    expect(localStorage.getItem('parley:expanded')).toBe('1');
    cleanup();
    sessionStorage.clear(); // a new visit: the panel starts closed
    await openPanel();
    expect(document.querySelector('.root')!.classList.contains('expanded')).toBe(true);
    fireEvent.click(more());
    await act(flush);
    expect(item('Full height').getAttribute('aria-checked')).toBe('true');
  });
});

describe('the sound switch', () => {
  it('is remembered across page loads and overrides the page`s sound option either way', async () => {
    const started = stubAudio();
    await openPanel();
    fireEvent.click(more());
    await act(flush);
    fireEvent.click(item('Sound'));
    expect(localStorage.getItem('parley:sound')).toBe('1');

    // A later page load with sound off by the page's option: the visitor's choice wins, and back.
    cleanup();
    sessionStorage.clear(); // a closed chat: only then does an answer beep
    seedSession();
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /api/messages': { body: { items: [], hasMore: false } } });
    for (const [n, expected] of [[1, 1], [2, 1]] as const) {
      const s = createStore(BFF, () => {}, undefined, undefined, n === 2);
      await s.actions.boot();
      await flush();
      FakeEventSource.last.emit('message', { id: `a-${n}`, role: 'bot', text: 'Ding' }, n + 1);
      expect(started).toHaveLength(expected);
      // Switched off: the page's sound: true no longer beeps either.
      if (n === 1) s.prefs.toggleSound();
      s.actions.destroy();
    }
    expect(localStorage.getItem('parley:sound')).toBe('0');
  });
});
