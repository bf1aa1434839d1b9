import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { loadParts } from '../ui/Part.js';
import { FakeEventSource, flush, freshBrowserEachTest, makeCtx, mockFetch, PUBLIC_CONFIG, seedSession, sessionBody } from '../../test/support.js';
import { App } from './App.js';

const items = [
  { sessionId: 's1', title: 'Where is my order?', state: 'open', updatedAt: '2026-03-02T09:30:00.000Z' },
  { sessionId: 's2', title: 'Gift wrapping', state: 'escalated', updatedAt: '2026-03-01T10:00:00.000Z' },
  { sessionId: 's0', title: 'Boots in size 44', state: 'archived', updatedAt: '2026-02-20T16:05:00.000Z' },
];
/** What `GET /api/conversations` answers now (another device or an operator may change it meanwhile). */
let listed = items;

async function mount(user?: { id: string; name?: string }) {
  seedSession(user ? { user } : {});
  const api = mockFetch({
    'GET /api/config': { body: PUBLIC_CONFIG },
    'GET /api/conversations': () => ({ body: { items: listed } }),
    'POST /api/conversations/s2/current': { body: { ...sessionBody(2), user: user ?? { id: 'ada' } } },
    'GET /api/messages': (call) => ({
      body: { items: call.path.includes('sessionId=s0') ? [{ id: '9', role: 'bot', text: 'Size 44 is in stock.' }] : [], limit: 20, offset: 0, hasMore: false },
    }),
  });
  const { ctx } = await makeCtx();
  render(<App ctx={ctx} />);
  await act(async () => {
    await ctx.store.actions.boot();
    ctx.store.actions.setOpen(true);
    await loadParts(); // the list is in the parts chunk (lazy.test.tsx tests its arrival)
    await flush();
  });
  return { api, ctx };
}

freshBrowserEachTest(() => {
  cleanup();
  listed = items;
});

describe('Conversations view', () => {
  it('is offered to signed-in users only', async () => {
    await mount();
    expect(screen.queryByRole('button', { name: 'Conversations' })).toBeNull();
  });

  it('lists title, date and state; a past one opens read-only with its history; keyboard focus follows the view', async () => {
    await mount({ id: 'ada', name: 'Ada' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Conversations' }));
      await flush();
    });
    const heading = screen.getByRole('heading', { name: 'Your conversations' });
    expect(document.activeElement).toBe(heading);
    const past = screen.getByRole('button', { name: /Boots in size 44/ });
    expect(past.textContent).toContain('Ended');
    expect(past.querySelector('time')!.getAttribute('datetime')).toBe('2026-02-20T16:05:00.000Z');
    expect(screen.getByRole('button', { name: /Where is my order\?/ }).textContent).toContain('Open');
    // Titles are the visitor's own words: each in its own direction ("Where is my order?" in an Arabic panel).
    expect(past.querySelector('.convo-title')!.getAttribute('dir')).toBe('auto');
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();

    await act(async () => {
      fireEvent.click(past);
      await flush();
    });
    expect(screen.getByRole('heading', { name: 'Boots in size 44' }).getAttribute('dir')).toBe('auto');
    expect(screen.getByText('Past conversation, read-only.')).toBeTruthy();
    expect(screen.getByText('Size 44 is in stock.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Message' })).toBeNull();

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Back to conversations' }));
      await flush();
    });
    await act(async () => {
      const start = screen.getByRole('button', { name: 'New conversation' });
      start.focus(); // from the keyboard
      fireEvent.click(start);
      await flush();
    });
    // The button went with the list: the text box of the new conversation has focus, not <body>.
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
    expect(screen.getByRole('button', { name: 'Conversations' })).toBeTruthy();
  });

  it("keeps up while shown: the current conversation's row from its stream, the list again when the tab shows again", async () => {
    const { api } = await mount({ id: 'ada', name: 'Ada' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Conversations' }));
      await flush();
    });
    const row = (name: RegExp) => screen.getByRole('button', { name });
    expect(row(/Where is my order\?/).textContent).toContain('Open');
    // An operator ends the current conversation (s1): its stream says so at once.
    act(() => FakeEventSource.last.emit('archived', {}, 1));
    expect(row(/Where is my order\?/).textContent).toContain('Ended');

    // Another one ends elsewhere: read again once the visitor comes back to this tab.
    listed = items.map((c) => (c.sessionId === 's2' ? { ...c, state: 'archived' } : c.sessionId === 's1' ? { ...c, state: 'archived' } : c));
    const reads = api.to('GET', '/api/conversations').length;
    await act(async () => {
      document.dispatchEvent(new Event('visibilitychange'));
      await flush();
    });
    expect(api.to('GET', '/api/conversations')).toHaveLength(reads + 1);
    expect(row(/Gift wrapping/).textContent).toContain('Ended');
  });

  it('an open conversation picked from the list becomes the current one: writable here, saved for every tab', async () => {
    const { api } = await mount({ id: 'ada', name: 'Ada' });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Conversations' }));
      await flush();
    });
    await act(async () => {
      const open = screen.getByRole('button', { name: /Gift wrapping/ });
      open.focus(); // from the keyboard
      fireEvent.click(open);
      await flush();
    });
    expect(api.to('POST', '/api/conversations/s2/current')).toHaveLength(1);
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
    expect(screen.queryByText('Past conversation, read-only.')).toBeNull();
    // Other tabs follow the stored session (their storage event), as after a sign-in.
    expect(Object.values({ ...localStorage }).some((v) => String(v).includes('"sessionId":"s2"'))).toBe(true);
  });
});
