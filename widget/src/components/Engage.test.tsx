import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { pickStrings } from '../i18n.js';
import { createStore } from '../store.js';
import { BFF, FakeEventSource, flush, freshBrowserEachTest, MODEL_CONFIG, mockFetch, mountApp, PUBLIC_CONFIG, seedSession, sessionBody, stubAudio } from '../../test/support.js';

// The engagement controls of docs/api.md "Engagement", through the rendered widget and its store.
const mount = mountApp;
const emit = (event: string, data: unknown, id: number) => act(() => FakeEventSource.last.emit(event, data, id));
const open = () => fireEvent.click(screen.getByRole('button', { name: /^Open chat/ }));

freshBrowserEachTest(() => {
  cleanup();
  document.title = '';
});

describe('message times', () => {
  it('puts every message in a <time datetime>, visible where its author starts or after a pause, the full date in its title', async () => {
    seedSession();
    const items = [
      { id: '1', role: 'user', text: 'Hi', createdAt: '2026-11-23T09:00:00.000Z' },
      { id: '2', role: 'bot', text: 'Hello', createdAt: '2026-11-23T09:01:00.000Z' },
      { id: '3', role: 'bot', text: 'How can I help?', createdAt: '2026-11-23T09:01:30.000Z' },
      { id: '4', role: 'bot', text: 'Still there?', createdAt: '2026-11-23T09:20:00.000Z' },
      { id: '5', role: 'user', text: 'Later', createdAt: '2026-11-23T09:21:00.000Z' },
    ];
    await mount({ 'GET /api/messages': { body: { items, hasMore: false } } });
    open();
    const times = [...document.querySelectorAll('time')];
    expect(times.map((t) => t.getAttribute('datetime'))).toEqual(items.map((m) => m.createdAt));
    // The answer shows when it came (another author); its next line within minutes does not; after a pause it does again.
    expect(times.map((t) => t.className)).toEqual(['time', 'time', 'sr-only', 'time', 'time']);
    // Not a tab stop each (a long conversation would take dozens of presses to cross): a day other
    // than today is in the time itself, the whole date in its title.
    expect(times[0]!.hasAttribute('tabindex')).toBe(false);
    const full = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short' }).format(new Date(items[0]!.createdAt));
    expect(times[0]!.title).toBe(full);
    expect(times[0]!.textContent).toBe(new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(items[0]!.createdAt)));
  });

  it('formats in the widget language', async () => {
    seedSession();
    const items = [{ id: '2', role: 'bot', text: 'Hallo', createdAt: '2026-11-23T09:01:00.000Z' }];
    await mount({ 'GET /api/messages': { body: { items, hasMore: false } } }, { locale: 'de-DE' });
    open();
    expect(document.querySelector('time')!.title).toContain('Montag');
    expect(document.querySelector('time')!.textContent).toMatch(/^23\.11\.2026, \d\d:01$/); // another day: its date too
    // Today's time alone.
    const now = new Date();
    emit('message', { id: '3', role: 'bot', text: 'Noch da?', createdAt: now.toISOString() }, 1);
    expect(document.querySelectorAll('time')[1]!.textContent).toBe(now.toLocaleTimeString('de-DE', { timeStyle: 'short' }));
  });
});

describe('answer feedback', () => {
  it('votes with toggle buttons, takes a comment after a thumbs down, and follows votes from other tabs', async () => {
    seedSession();
    const { api } = await mount({ 'POST /api/feedback': { status: 202, body: {} } });
    open();
    emit('message', { id: 'a1', role: 'bot', text: 'An answer' }, 2);
    const group = screen.getByRole('group', { name: 'Rate this answer' });
    const up = within(group).getByRole('button', { name: 'Helpful' });
    const down = within(group).getByRole('button', { name: 'Not helpful' });
    expect(up.getAttribute('aria-pressed')).toBe('false');

    fireEvent.click(up);
    expect(up.getAttribute('aria-pressed')).toBe('true');
    await waitFor(() => expect(api.to('POST', '/api/feedback').map((call) => call.body)).toEqual([{ messageId: 'a1', value: 'up' }]));

    fireEvent.click(down);
    expect(down.getAttribute('aria-pressed')).toBe('true');
    expect(up.getAttribute('aria-pressed')).toBe('false');
    const comment = screen.getByRole('textbox', { name: 'What was missing?' });
    fireEvent.input(comment, { target: { value: 'The size chart' } });
    fireEvent.submit(comment.closest('form')!);
    await waitFor(() => expect(api.to('POST', '/api/feedback').map((call) => call.body)).toHaveLength(3));
    expect(api.to('POST', '/api/feedback')[2]!.body).toEqual({ messageId: 'a1', value: 'down', comment: 'The size chart' });
    expect(screen.queryByRole('textbox', { name: 'What was missing?' })).toBeNull();

    // Another tab voted: the stream says so.
    emit('feedback', { messageId: 'a1', value: 'up' }, 3);
    expect(up.getAttribute('aria-pressed')).toBe('true');
  });

  it('shows the vote a history page carries, offers none on the visitor\'s or a person\'s messages, and takes a refused vote back', async () => {
    seedSession();
    const items = [
      { id: 'u', role: 'user', text: 'Q' },
      { id: 'a', role: 'bot', text: 'A', feedback: 'down' },
      { id: 'u2', role: 'user', text: 'Talk to a person' },
      { id: 'o', role: 'operator', operatorName: 'Sam', text: 'Hi, Sam here' },
    ];
    await mount({ 'GET /api/messages': { body: { items, hasMore: false } }, 'POST /api/feedback': { status: 400, body: { error: { code: 'unknown_message', message: 'x' } } } });
    open();
    expect(screen.getAllByRole('group', { name: 'Rate this answer' })).toHaveLength(1);
    const up = screen.getByRole('button', { name: 'Helpful' });
    expect(screen.getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(up);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed')).toBe('true'));
    expect(up.getAttribute('aria-pressed')).toBe('false');
  });

  it('keeps the thumbs of the answer before "Talk to a person", when the handoff comes and after a reload; the notice gets none', async () => {
    seedSession();
    const { api } = await mount({ 'POST /api/escalate': { status: 202, body: {} } });
    open();
    emit('message', { id: 'u1', role: 'user', text: 'Can I return a worn item?' }, 2);
    emit('message', { id: 'a1', role: 'bot', text: 'Returns are free within 30 days.' }, 3);
    expect(screen.getAllByRole('group', { name: 'Rate this answer' })).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Talk to a person' }));
    await waitFor(() => expect(api.to('POST', '/api/escalate')).toHaveLength(1));
    // The service hands over, then its notice follows in the same bot turn: no visitor message between.
    emit('state', { state: 'escalated' }, 4);
    expect(screen.getAllByRole('group', { name: 'Rate this answer' })).toHaveLength(1);
    emit('message', { id: 'n1', role: 'bot', text: 'Connecting you to a human.' }, 5);
    const thumbs = () => screen.getAllByRole('group', { name: 'Rate this answer' }).map((g) => g.closest('.msg')?.textContent);
    expect(thumbs()).toHaveLength(1);
    expect(thumbs()[0]).toContain('Returns are free');
    // A reload: the history brings the same lines, the stored session says which was the handoff.
    const items = [
      { id: 'u1', role: 'user', text: 'Can I return a worn item?' },
      { id: 'a1', role: 'bot', text: 'Returns are free within 30 days.' },
      { id: 'n1', role: 'bot', text: 'Connecting you to a human.' },
    ];
    cleanup();
    await mount({ 'GET /api/messages': { body: { items, hasMore: false } } }); // the panel stays open in this tab
    expect(thumbs()).toHaveLength(1);
    expect(thumbs()[0]).toContain('Returns are free');
  });
});

describe('Stop', () => {
  it('shows Stop while a model reply streams; it asks the BFF to stop, and the stopped reply stays', async () => {
    seedSession();
    const { api } = await mount({ 'POST /api/stop': { status: 202, body: {} } }, {}, MODEL_CONFIG);
    open();
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    emit('message_delta', { id: 'b_1', delta: 'Once upon' }, 2);
    const stop = screen.getByRole('button', { name: 'Stop' });
    stop.focus();
    fireEvent.click(stop);
    await waitFor(() => expect(api.to('POST', '/api/stop')).toHaveLength(1));
    emit('message', { id: 'b_1', role: 'bot', text: 'Once upon', stopped: true }, 3);
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    // Keyboard focus went back to the composer, not to <body>.
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
    expect(screen.getByText('Once upon')).toBeTruthy();
  });

  it('gives focus back to the text box when the answer ends by itself while Stop has it', async () => {
    seedSession();
    await mount({}, {}, MODEL_CONFIG);
    open();
    emit('message_delta', { id: 'b_1', delta: 'Once upon' }, 2);
    screen.getByRole('button', { name: 'Stop' }).focus();
    emit('message', { id: 'b_1', role: 'bot', text: 'Once upon a time.' }, 3);
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' }));
  });
});

describe('alerts', () => {
  it('prefixes the page title with the unread count while the chat is closed, and restores it once read', async () => {
    document.title = 'Nimbus Outdoor';
    seedSession();
    await mount();
    emit('message', { id: 'a1', role: 'bot', text: 'One' }, 2);
    emit('message', { id: 'a2', role: 'operator', text: 'Two' }, 3);
    expect(document.title).toBe('(2) Nimbus Outdoor');
    open();
    expect(document.title).toBe('Nimbus Outdoor');
  });

  it('counts answers while the tab is hidden even with the chat open, until the tab shows again', async () => {
    document.title = 'Shop';
    seedSession();
    await mount();
    open();
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    emit('message', { id: 'a1', role: 'bot', text: 'While away' }, 2);
    expect(document.title).toBe('(1) Shop');
    hidden.mockReturnValue(false);
    act(() => void document.dispatchEvent(new Event('visibilitychange')));
    expect(document.title).toBe('Shop');
  });

  it('beeps with Web Audio only with sound: true', async () => {
    const started = stubAudio();
    seedSession();
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /api/messages': { body: { items: [], hasMore: false } } });
    for (const sound of [false, true]) {
      const s = createStore(BFF, () => {}, undefined, undefined, sound);
      await s.actions.boot();
      await flush();
      FakeEventSource.last.emit('message', { id: `a-${sound}`, role: 'bot', text: 'Ding' }, 2);
      expect(started).toHaveLength(sound ? 1 : 0);
      s.actions.destroy();
    }
  });

  it('init({launcher: false}) renders no launcher; the page opens the chat itself', async () => {
    const { ctx } = await mount({}, { options: { launcher: false } });
    expect(screen.queryByRole('button', { name: 'Open chat' })).toBeNull();
    act(() => ctx.store.actions.setOpen(true));
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

describe('proactive message', () => {
  it('shows a bubble that opens into the chat as its first bot line, and goes along as context with the first message', async () => {
    const { api, ctx } = await mount({ 'POST /api/session': { status: 201, body: sessionBody(1) } });
    act(() => ctx.store.actions.show('Need help choosing a tent?'));
    fireEvent.click(screen.getByRole('button', { name: 'Need help choosing a tent?' }));
    const log = screen.getByRole('log');
    expect(within(log).getByText('Need help choosing a tent?')).toBeTruthy();
    expect(screen.queryByText('Hello from the config')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Need help choosing a tent?' })).toBeNull();
    act(() => void ctx.store.actions.send('Yes, a 2-person one'));
    await waitFor(() => expect(api.to('POST', '/api/session')).toHaveLength(1));
    expect(api.to('POST', '/api/session')[0]!.body).toMatchObject({ text: 'Yes, a 2-person one', context: 'Need help choosing a tent?' });
  });

  it('can be dismissed, and after a dismissal no bubble comes back for the rest of the visit', async () => {
    const { ctx } = await mount();
    act(() => ctx.store.actions.show('Free shipping today'));
    // Its text keeps its own direction (an English offer in an Arabic page reads "today.", not ".today").
    expect(screen.getByRole('button', { name: 'Free shipping today' }).getAttribute('dir')).toBe('auto');
    const dismiss = screen.getByRole('button', { name: 'Dismiss' });
    dismiss.focus();
    fireEvent.click(dismiss);
    expect(screen.queryByText('Free shipping today')).toBeNull();
    // The button went with the bubble: focus is on the launcher, not on <body>.
    expect(document.activeElement?.shadowRoot?.activeElement ?? document.activeElement).toBe(screen.getByRole('button', { name: 'Open chat' }));
    act(() => ctx.store.actions.show('Free shipping today'));
    expect(screen.queryByText('Free shipping today')).toBeNull();
    act(() => ctx.store.actions.show('Another offer'));
    expect(screen.queryByText('Another offer')).toBeNull();
  });

  it('does not come back once the visitor has answered', async () => {
    const { api, ctx } = await mount({ 'POST /api/session': { status: 201, body: sessionBody(1) } });
    act(() => ctx.store.actions.show('Need help choosing a tent?'));
    fireEvent.click(screen.getByRole('button', { name: 'Need help choosing a tent?' }));
    act(() => void ctx.store.actions.send('Yes please'));
    await waitFor(() => expect(api.to('POST', '/api/session')).toHaveLength(1));
    act(() => ctx.store.actions.setOpen(false));
    act(() => ctx.store.actions.show('Still looking for a tent?'));
    expect(screen.queryByText('Still looking for a tent?')).toBeNull();
  });

  it('does not come back with the text answered: not after a reload while the messages still load, not once that conversation has ended', async () => {
    const routes = { 'POST /api/session': { status: 201, body: sessionBody(1) }, 'GET /api/messages': () => new Promise<never>(() => {}) };
    const first = await mount(routes);
    act(() => first.ctx.store.actions.show('Need help choosing a tent?'));
    fireEvent.click(screen.getByRole('button', { name: 'Need help choosing a tent?' }));
    act(() => void first.ctx.store.actions.send('Yes please'));
    await waitFor(() => expect(first.api.to('POST', '/api/session')).toHaveLength(1));
    // The next page: the site asks again at once, before the conversation's messages are back.
    cleanup();
    first.ctx.store.actions.destroy();
    sessionStorage.clear(); // also in a new tab of the same browser
    const again = await mount(routes);
    expect(again.ctx.store.state.convo.value).toBe('active');
    act(() => again.ctx.store.actions.show('Need help choosing a tent?'));
    expect(screen.queryByRole('button', { name: 'Need help choosing a tent?' })).toBeNull();
    // The conversation ends and the visitor starts afresh: the offer they answered is not made again; another one is.
    act(() => FakeEventSource.last.emit('archived', {}, 2));
    act(() => again.ctx.store.actions.restart());
    act(() => again.ctx.store.actions.show('Need help choosing a tent?'));
    expect(screen.queryByRole('button', { name: 'Need help choosing a tent?' })).toBeNull();
    act(() => again.ctx.store.actions.show('Tents are 20% off today'));
    expect(screen.getByRole('button', { name: 'Tents are 20% off today' })).toBeTruthy();
  });
});

describe('end of a conversation', () => {
  it('offers a transcript named after the title and date, with the greeting, every message, its time and sender, the line when an operator joined, and a new conversation', async () => {
    seedSession();
    const items = [
      { id: '1', role: 'user', text: 'Where is my order?', createdAt: '2026-11-23T09:00:00.000Z' },
      { id: '2', role: 'bot', text: 'On its way.', createdAt: '2026-11-23T09:00:05.000Z' },
      { id: '3', role: 'operator', operatorName: 'Sam', text: 'Anything else?', createdAt: '2026-11-23T09:02:00.000Z' },
    ];
    await mount({ 'GET /api/messages': { body: { items, hasMore: false } } });
    open();
    emit('archived', {}, 2);
    let saved: Blob | undefined;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => ((saved = b), 'blob:x'), revokeObjectURL() {} }));
    let file = '';
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      file = this.download;
    });
    fireEvent.click(screen.getByRole('button', { name: 'Download transcript' }));
    await waitFor(() => expect(file).toMatch(/^Nimbus help \d{4}-\d\d-\d\d\.txt$/));
    const text = await saved!.text();
    const t = pickStrings();
    const at = (iso: string) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short' }).format(new Date(iso));
    expect(text).toBe(
      `Nimbus help\n${new Intl.DateTimeFormat('en-GB', { dateStyle: 'full' }).format(new Date())}\n\nAssistant: Hello from the config\n\n` +
        `[${at(items[0]!.createdAt)}] ${t.you}: Where is my order?\n\n[${at(items[1]!.createdAt)}] ${t.bot}: On its way.\n\nSam joined the conversation\n\n[${at(items[2]!.createdAt)}] Sam: Anything else?\n\n`,
    );
    expect(screen.getByRole('button', { name: 'Start a new conversation' })).toBeTruthy();
  });

  it('fetches the older history pages first, so the transcript misses nothing', async () => {
    seedSession();
    const older = [{ id: '1', role: 'user', text: 'The very first question' }];
    const newest = [{ id: '2', role: 'bot', text: 'The latest answer' }];
    const { api } = await mount({
      'GET /api/messages': (call) => ({ body: call.path.includes('offset=0') ? { items: newest, hasMore: true } : { items: older, hasMore: false } }),
    });
    open();
    emit('archived', {}, 2);
    let saved: Blob | undefined;
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => ((saved = b), 'blob:x'), revokeObjectURL() {} }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    fireEvent.click(screen.getByRole('button', { name: 'Download transcript' }));
    await waitFor(() => expect(saved).toBeDefined());
    expect(api.to('GET', '/api/messages?limit=20&offset=1')).toHaveLength(1);
    expect(await saved!.text()).toMatch(/\n\nAssistant: Hello from the config\n\nYou: The very first question\n\nAssistant: The latest answer\n\n$/);
  });
});
