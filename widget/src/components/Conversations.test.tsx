import { act, cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { pickStrings } from '../i18n.js';
import { loadParts } from '../ui/Part.js';
import ar from '../locales/ar.js';
import de from '../locales/de.js';
import fr from '../locales/fr.js';
import { relativeDate } from './Conversations.js';
import { FakeEventSource, flush, freshBrowserEachTest, makeCtx, mockFetch, PUBLIC_CONFIG, seedSession, sessionBody } from '../../test/support.js';
import { App } from './App.js';

const items: Array<{ sessionId: string; title: string; state: string; updatedAt: string; lastMessage?: { text: string; author: { kind: string; name?: string }; at?: string } }> = [
  { sessionId: 's1', title: 'Where is my order?', state: 'open', updatedAt: '2026-03-02T09:30:00.000Z' },
  { sessionId: 's2', title: 'Gift wrapping', state: 'escalated', updatedAt: '2026-03-01T10:00:00.000Z' },
  { sessionId: 's0', title: 'Boots in size 44', state: 'archived', updatedAt: '2026-02-20T16:05:00.000Z' },
];
/** What `GET /api/conversations` answers now (another device or an operator may change it meanwhile). */
let listed = items;

async function mount(user?: { id: string; name?: string }, overrides: Parameters<typeof makeCtx>[0] = {}) {
  seedSession(user ? { user } : {});
  const api = mockFetch({
    'GET /api/config': { body: PUBLIC_CONFIG },
    'GET /api/conversations': () => ({ body: { items: listed } }),
    'POST /api/conversations/s2/current': { body: { ...sessionBody(2), user: user ?? { id: 'ada' } } },
    'GET /api/messages': (call) => ({
      body: { items: call.path.includes('sessionId=s0') ? [{ id: '9', role: 'bot', text: 'Size 44 is in stock.' }] : [], limit: 20, offset: 0, hasMore: false },
    }),
  });
  const { ctx } = await makeCtx(overrides);
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

describe('when, in the list', () => {
  const zone = process.env.TZ;
  afterEach(() => void (process.env.TZ = zone));
  const now = new Date('2026-11-28T18:31:00Z');

  it('is relative as people say it, then a short date, by the calendar of the visitor\'s time zone', () => {
    process.env.TZ = 'Europe/Berlin';
    const at = (iso: string, locale = 'en-GB') => relativeDate(iso, locale, now);
    expect(at('2026-11-28T18:30:45Z')).toBe('now');
    expect(at('2026-11-28T18:33:00Z')).toBe('now'); // a clock a little behind the BFF's
    expect(at('2026-11-28T18:25:30Z')).toBe('5 minutes ago');
    expect(at('2026-11-28T15:00:00Z')).toBe('3 hours ago');
    expect(at('2026-11-27T22:59:00Z')).toBe('yesterday'); // 23:59 the day before in Berlin
    expect(at('2026-11-27T23:01:00Z')).toBe('19 hours ago'); // 00:01 today in Berlin
    expect(at('2026-11-25T10:00:00Z')).toBe('3 days ago');
    expect(at('2026-11-20T10:00:00Z')).toBe('20 Nov');
    expect(at('2025-12-24T10:00:00Z')).toBe('24 Dec 2025');
    expect(at('2026-11-28T18:25:30Z', 'de')).toBe('vor 5 Minuten');
    expect(at('2026-11-27T12:00:00Z', 'de')).toBe('gestern');
    expect(at('2026-11-20T10:00:00Z', 'de')).toBe('20. Nov.');
    expect(at('2026-11-27T12:00:00Z', 'ar')).toBe('أمس');
  });
});

describe("the list's last messages", () => {
  const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
  const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
  const withLast = () => [
    { ...items[0]!, updatedAt: minutesAgo(30), lastMessage: { text: 'Your parcel left the warehouse today', author: { kind: 'bot', name: 'Juniper' }, at: minutesAgo(5) } },
    { ...items[1]!, updatedAt: daysAgo(1), lastMessage: { text: '<b>Wrapped</b> **with** a bow', author: { kind: 'operator', name: 'Mara Lindqvist' }, at: daysAgo(1) } },
    { ...items[2]!, updatedAt: '2025-02-20T16:05:00.000Z', lastMessage: { text: 'Thanks, that fits!', author: { kind: 'user' } } },
  ];
  const openList = async () =>
    act(async () => {
      fireEvent.click(screen.getByRole('button', { name: /Conversations|Unterhaltungen|المحادثات/ }));
      await flush();
    });
  const rows = () => [...document.querySelectorAll('.conversations li button')];

  it('show who answered (the bot, the operator, or you) and the line, as text, with a relative date', async () => {
    listed = withLast();
    await mount({ id: 'ada', name: 'Ada' });
    await openList();
    expect(rows().map((row) => row.querySelector('.convo-last')?.textContent)).toEqual([
      'Juniper: Your parcel left the warehouse today',
      'Mara Lindqvist: <b>Wrapped</b> **with** a bow',
      'You: Thanks, that fits!',
    ]);
    // Words, never markup: the tags are text, and no element comes of them.
    expect(rows()[1]!.querySelector('.convo-last b, .convo-last strong')).toBeNull();
    // The name and the words each keep their own direction.
    expect(rows()[0]!.querySelectorAll('.convo-last bdi')).toHaveLength(2);
    // The line runs in its words' direction, so a cut one shows their start.
    expect(rows()[0]!.querySelector('.convo-last')!.getAttribute('dir')).toBe('ltr');
    // The newer of the two dates: the answer came after the visitor's last write.
    expect(rows().map((row) => row.querySelector('time')!.textContent)).toEqual(['5 minutes ago', 'yesterday', '20 Feb 2025']);
    expect(rows()[0]!.querySelector('time')!.getAttribute('datetime')).toBe(listed[0]!.lastMessage!.at);
    expect(rows()[0]!.textContent).toContain('Open');
  });

  it('speak the visitor\'s language, and a row without a last message shows none', async () => {
    listed = [withLast()[1]!, items[2]!];
    await mount({ id: 'ada', name: 'Ada' }, { strings: pickStrings(de), locale: 'de' });
    await openList();
    expect(rows()[0]!.querySelector('.convo-last')!.textContent).toBe('Mara Lindqvist: <b>Wrapped</b> **with** a bow');
    expect(rows()[0]!.querySelector('time')!.textContent).toBe('gestern');
    expect(rows()[1]!.querySelector('.convo-last')).toBeNull();
    cleanup();
    listed = [{ ...items[0]!, lastMessage: { text: 'طلبك في الطريق', author: { kind: 'bot', name: 'Juniper' } } }];
    await mount({ id: 'ada', name: 'Ada' }, { strings: pickStrings(ar), locale: 'ar', dir: 'rtl' });
    await openList();
    expect(rows()[0]!.querySelector('.convo-last')!.getAttribute('dir')).toBe('rtl');
    cleanup();
    listed = [withLast()[2]!];
    await mount({ id: 'ada', name: 'Ada' }, { strings: pickStrings(fr) , locale: 'fr' });
    await openList();
    expect(rows()[0]!.querySelector('.convo-last')!.textContent).toBe('Vous : Thanks, that fits!');
  });
});

describe('welcome back', () => {
  it("greets a signed-in visitor by name above the conversation they came back to, in their language (the name in its own direction)", async () => {
    await mount({ id: 'ada', name: 'Ada' });
    expect(screen.getByRole('status').textContent).toBe('Welcome back, Ada!');
    cleanup();
    await mount({ id: 'ada', name: 'Ada' }, { strings: pickStrings(ar), locale: 'ar', dir: 'rtl' });
    expect(screen.getByRole('status').textContent).toBe('مرحبًا بعودتك يا Ada!');
    expect(screen.getByRole('status').querySelector('bdi')!.textContent).toBe('Ada');
    cleanup();
    await mount({ id: 'ada' });
    expect(screen.getByText('Welcome back!')).toBeTruthy();
  });

  it('is not said to an anonymous visitor', async () => {
    await mount();
    expect(screen.queryByText(/Welcome back/)).toBeNull();
  });
});

