import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pickStrings } from '../i18n.js';
import ar from '../locales/ar.js';
import de from '../locales/de.js';
import fr from '../locales/fr.js';
import { FakeEventSource, flush, freshBrowserEachTest, makeCtx, mockEventSource, mockFetch, PUBLIC_CONFIG, sessionBody } from '../../test/support.js';
import { App } from './App.js';

const KEY = 'parley:https://bff.test';

async function mount(routes: Parameters<typeof mockFetch>[0] = {}, options: Parameters<typeof makeCtx>[0] = {}) {
  const api = mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, ...routes });
  const { ctx, events } = await makeCtx(options);
  render(<App ctx={ctx} />);
  await act(async () => {
    await ctx.store.actions.boot();
    await flush();
  });
  return { api, ctx, events };
}

function seedSession() {
  localStorage.setItem(KEY, JSON.stringify(sessionBody(1)));
}

const textbox = () => screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;

freshBrowserEachTest(cleanup);

describe('launcher and panel', () => {
  it('opens a labelled dialog with focus inside; Escape closes it and focus returns to the launcher', async () => {
    const { events } = await mount();
    const launcher = screen.getByRole('button', { name: 'Open chat' });
    expect(launcher.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(launcher);
    const dialog = await screen.findByRole('dialog', { name: 'Nimbus help' });
    expect(screen.getByText('Hello from the config')).toBeTruthy();
    expect(document.activeElement).toBe(textbox());
    expect(screen.getByRole('log').getAttribute('aria-live')).toBe('polite');

    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Open chat' }));
    expect(events.map(([n]) => n)).toEqual(['open', 'close']);
  });

  it('full screen on a phone, the panel is modal and Tab cycles inside it', async () => {
    const real = window.matchMedia;
    vi.stubGlobal('matchMedia', (q: string) => ({ ...real(q), matches: q.includes('max-width: 480px') }));
    await mount();
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nimbus help' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    const focusables = [...dialog.querySelectorAll<HTMLElement>('button:not([disabled]),textarea')];
    const [first, last] = [focusables[0]!, focusables[focusables.length - 1]!];
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
  });

  it('on a desktop the floating panel is not modal', async () => {
    await mount();
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    expect((await screen.findByRole('dialog')).hasAttribute('aria-modal')).toBe(false);
  });

  it('puts the unread count in the launcher label', async () => {
    seedSession();
    await mount({ 'GET /api/messages': { body: { items: [], hasMore: false } } });
    act(() => FakeEventSource.last.emit('message', { id: '9', role: 'bot', text: 'Any news?' }, 1));
    expect(screen.getByRole('button', { name: 'Open chat, 1 unread' }).textContent).toBe('1');
  });

  it("writes the unread count in the language's digits, on the badge and in the label", async () => {
    seedSession();
    await mount({ 'GET /api/messages': { body: { items: [], hasMore: false } } }, { strings: pickStrings(ar), locale: 'ar-EG', dir: 'rtl' });
    act(() => FakeEventSource.last.emit('message', { id: '9', role: 'bot', text: 'Any news?' }, 1));
    act(() => FakeEventSource.last.emit('message', { id: '10', role: 'bot', text: 'Still there?' }, 2));
    expect(screen.getByRole('button', { name: `${ar.open}, ${ar.unread!.replace('{n}', '٢')}` }).textContent).toBe('٢');
  });

  it('translates, accepts string overrides, and turns right-to-left', async () => {
    await mount({}, { strings: pickStrings(de, { placeholder: 'Frag uns' }), dir: 'rtl' });
    fireEvent.click(screen.getByRole('button', { name: 'Chat öffnen' }));
    expect((screen.getByRole('textbox', { name: 'Nachricht' }) as HTMLTextAreaElement).placeholder).toBe('Frag uns');
    expect(screen.getByRole('button', { name: 'Senden' })).toBeTruthy();
    expect(document.querySelector('.root')!.getAttribute('dir')).toBe('rtl');
  });

  it("speaks the visitor's language when the BFF sets no title or greeting", async () => {
    const { title: _t, greeting: _g, ...untitled } = PUBLIC_CONFIG;
    await mount({ 'GET /api/config': { body: untitled } }, { strings: pickStrings(fr) });
    fireEvent.click(screen.getByRole('button', { name: 'Ouvrir le chat' }));
    expect(screen.getByRole('dialog', { name: 'Chat' })).toBeTruthy();
    expect(screen.getByText('Bonjour ! Comment pouvons-nous vous aider ?')).toBeTruthy();
  });

  it("shows the BFF's title and greeting in the widget's language when they are set by language", async () => {
    const byLanguage = { ...PUBLIC_CONFIG, title: { en: 'Nimbus help', de: 'Nimbus-Hilfe' }, greeting: { en: 'Hello!', de: 'Hallo aus dem Laden!' } };
    await mount({ 'GET /api/config': { body: byLanguage } }, { strings: pickStrings(de), options: { locale: 'de' } });
    fireEvent.click(screen.getByRole('button', { name: 'Chat öffnen' }));
    expect(screen.getByRole('dialog', { name: 'Nimbus-Hilfe' })).toBeTruthy();
    expect(screen.getByText('Hallo aus dem Laden!')).toBeTruthy();
  });

  it("a French widget without a French entry uses its own strings, not the English entry", async () => {
    const byLanguage = { ...PUBLIC_CONFIG, title: { en: 'Nimbus help' }, greeting: { en: 'Hello!' } };
    await mount({ 'GET /api/config': { body: byLanguage } }, { strings: pickStrings(fr), options: { locale: 'fr' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ouvrir le chat' }));
    expect(screen.getByRole('dialog', { name: 'Chat' })).toBeTruthy();
    expect(screen.getByText('Bonjour ! Comment pouvons-nous vous aider ?')).toBeTruthy();
  });

  it("the page's string overrides win over the BFF's title and greeting", async () => {
    const strings = { title: 'Hilfe', greeting: 'Wie können wir helfen?' };
    await mount({}, { strings: pickStrings(de, strings), options: { strings } });
    fireEvent.click(screen.getByRole('button', { name: 'Chat öffnen' }));
    expect(screen.getByRole('dialog', { name: 'Hilfe' })).toBeTruthy();
    expect(screen.getByText('Wie können wir helfen?')).toBeTruthy();
    expect(screen.queryByText('Hello from the config')).toBeNull();
  });
});

describe('composer', () => {
  it('Enter sends, Shift+Enter does not', async () => {
    const { api } = await mount({ 'POST /api/session': { status: 201, body: sessionBody(1) } });
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    fireEvent.input(textbox(), { target: { value: 'line one' } });
    fireEvent.keyDown(textbox(), { key: 'Enter', shiftKey: true });
    await act(flush);
    expect(api.to('POST', '/api/session')).toHaveLength(0);
    expect(textbox().value).toBe('line one');

    fireEvent.keyDown(textbox(), { key: 'Enter' });
    expect(textbox().value).toBe('');
    expect(screen.getByText('line one')).toBeTruthy();
    await act(flush);
    expect(api.to('POST', '/api/session')[0]!.body.text).toBe('line one');
  });

  it('counts down near the limit, says how far over a longer text is, and sends nothing cut', async () => {
    const { api } = await mount({ 'POST /api/session': { status: 201, body: sessionBody(1) } });
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    fireEvent.input(textbox(), { target: { value: 'x'.repeat(3700) } });
    expect(screen.queryByText(/Characters left/)).toBeNull();
    fireEvent.input(textbox(), { target: { value: 'x'.repeat(3850) } });
    expect(screen.getByText('Characters left: 150')).toBeTruthy();
    // Pasted past the limit: all of it stays in the box, and the box says what to do.
    const pasted = 'x'.repeat(4000) + ' the end of my question';
    fireEvent.input(textbox(), { target: { value: pasted } });
    expect(textbox().value).toBe(pasted);
    expect(screen.getByText('Too long by 23 characters. Shorten it to send.')).toBeTruthy();
    expect(textbox().getAttribute('aria-invalid')).toBe('true');
    expect(textbox().getAttribute('aria-describedby')).toBe('parley-count');
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(textbox(), { key: 'Enter' });
    await act(flush);
    expect(api.to('POST', '/api/session')).toHaveLength(0);
    expect(textbox().value).toBe(pasted);
    fireEvent.input(textbox(), { target: { value: 'x'.repeat(4000) } });
    fireEvent.keyDown(textbox(), { key: 'Enter' });
    await act(flush);
    expect(api.to('POST', '/api/session')[0]!.body.text).toHaveLength(4000);
  });

  it('keeps focus in the chat, on the text box, after a send with the button (which the emptied box disables)', async () => {
    const { api } = await mount({ 'POST /api/session': { status: 201, body: sessionBody(1) } });
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    fireEvent.input(textbox(), { target: { value: 'hello' } });
    const send = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    send.focus();
    fireEvent.submit(send.form!);
    await act(flush);
    expect(api.to('POST', '/api/session')).toHaveLength(1);
    expect(send.disabled).toBe(true);
    expect(document.activeElement).toBe(textbox());
  });

  it('keeps the text when sending fails and sends it again with Retry', async () => {
    let fail = true;
    const { api } = await mount({
      'POST /api/session': () => (fail ? { status: 502, body: { error: { code: 'upstream_error', message: 'refused' } } } : { status: 201, body: sessionBody(1) }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    fireEvent.input(textbox(), { target: { value: 'Where is my order?' } });
    fireEvent.keyDown(textbox(), { key: 'Enter' });
    await act(flush);
    expect(screen.getByRole('alert').textContent).toContain('Your message was not sent.');
    expect(textbox().value).toBe('Where is my order?');

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await act(flush);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(textbox().value).toBe('');
    expect(api.to('POST', '/api/session').map((call) => call.body.text)).toEqual(['Where is my order?', 'Where is my order?']);
  });

  it('a message that may have been sent stays on screen as such, with no Retry and nothing sent again', async () => {
    const { api } = await mount({
      'POST /api/session': { status: 502, body: { error: { code: 'send_uncertain', message: 'may have been sent' } } },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    fireEvent.input(textbox(), { target: { value: 'Cancel my order' } });
    fireEvent.keyDown(textbox(), { key: 'Enter' });
    await act(flush);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(screen.getByText('Cancel my order')).toBeTruthy();
    expect(screen.getByText(/May have been sent/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(textbox().value).toBe('');
    expect(api.to('POST', '/api/session')).toHaveLength(1);
  });

  it('"may have been sent" goes once the service\'s history, read when the answer comes, has the message', async () => {
    seedSession();
    let arrived = false;
    const mine = { id: '2', role: 'user', text: 'Cancel my order', createdAt: new Date().toISOString() };
    const { api } = await mount({
      'POST /api/messages': { status: 502, body: { error: { code: 'send_uncertain', message: 'may have been sent' } } },
      'GET /api/messages': () => ({ body: { items: arrived ? [mine] : [], hasMore: false } }),
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    fireEvent.input(textbox(), { target: { value: 'Cancel my order' } });
    fireEvent.keyDown(textbox(), { key: 'Enter' });
    await act(flush);
    expect(screen.getByText(/May have been sent/)).toBeTruthy();
    const reads = api.to('GET', '/api/messages').length;
    // It did arrive: the agent answers it.
    arrived = true;
    act(() => FakeEventSource.last.emit('message', { id: '3', role: 'bot', text: 'Done: cancelled.' }, 1));
    await act(flush);
    expect(api.to('GET', '/api/messages')).toHaveLength(reads + 1);
    expect(screen.queryByText(/May have been sent/)).toBeNull();
    expect(screen.getAllByText('Cancel my order')).toHaveLength(1);
    // Confirmed: later answers read no history.
    act(() => FakeEventSource.last.emit('message', { id: '4', role: 'bot', text: 'Anything else?' }, 2));
    await act(flush);
    expect(api.to('GET', '/api/messages')).toHaveLength(reads + 1);
  });
});

describe('conversation', () => {
  const routes = {
    'GET /api/messages': { body: { items: [{ id: '1', role: 'bot', text: '<img src=x onerror="alert(1)"> **hi**' }], hasMore: false } },
    'POST /api/escalate': { status: 202, body: {} },
  };

  it('renders restored messages safely, and operator messages with the operator name', async () => {
    seedSession();
    await mount(routes);
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    expect(document.querySelector('.log img')).toBeNull();
    expect(screen.getByText(/<img src=x onerror/)).toBeTruthy();
    act(() => FakeEventSource.last.emit('message', { id: '2', role: 'operator', text: 'Ana here', operatorName: 'Ana' }, 1));
    expect(screen.getByText('Ana')).toBeTruthy();
    expect(screen.getByText('Ana here')).toBeTruthy();
  });

  it('tells the user when the assistant cannot answer, until the next answer', async () => {
    seedSession();
    const { events } = await mount(routes);
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    act(() => FakeEventSource.last.emit('error', { code: 'budget_exhausted', message: 'No credit left' }, 1));
    expect(screen.getByRole('alert').textContent).toBe("The assistant has reached its usage limit and can't answer for now.");
    expect(events).toContainEqual(['error', { code: 'budget_exhausted', message: 'No credit left' }]);
    act(() => FakeEventSource.last.emit('message', { id: '5', role: 'bot', text: 'Back again' }, 2));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('"Load older messages" keeps focus while it loads, and leaves it on the log once the first page is in', async () => {
    seedSession();
    let release!: () => void;
    const olderPage = new Promise<void>((r) => (release = r));
    const { api } = await mount({
      'GET /api/messages': async (call) => {
        if (call.path.includes('offset=0')) return { body: { items: [{ id: '2', role: 'bot', text: 'Newer' }], hasMore: true } };
        await olderPage;
        return { body: { items: [{ id: '1', role: 'user', text: 'The very first question' }], hasMore: false } };
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    const older = screen.getByRole('button', { name: 'Load older messages' });
    older.focus();
    fireEvent.click(older);
    await act(flush);
    expect(older.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(older); // not disabled: a disabled button drops focus to <body>
    fireEvent.click(older); // a second press while loading asks for nothing more
    await act(async () => {
      release();
      await flush();
    });
    expect(api.to('GET', '/api/messages?limit=20&offset=1')).toHaveLength(1);
    expect(screen.getByText('The very first question')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load older messages' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('log'));
  });

  it('says it again after a reload, until the next answer: the question left unanswered keeps its reason', async () => {
    seedSession();
    await mount(routes);
    act(() => FakeEventSource.last.emit('error', { code: 'budget_exhausted', message: 'No credit left' }, 1));
    cleanup(); // the page reloads
    await mount(routes);
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    expect(screen.getByRole('alert').textContent).toBe("The assistant has reached its usage limit and can't answer for now.");
    act(() => FakeEventSource.last.emit('message', { id: '5', role: 'bot', text: 'Back again' }, 2));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(JSON.parse(localStorage.getItem(KEY)!).notice).toBeUndefined();
  });

  it('after a reload, a question asked moments ago with no answer yet still shows the dots, and only for the rest of their time', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      seedSession();
      const asked = (ago: number) => ({ 'GET /api/messages': { body: { items: [{ id: '1', role: 'user', text: 'Is it waterproof?', createdAt: new Date(Date.now() - ago).toISOString() }], hasMore: false } } });
      await mount(asked(20_000));
      fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
      expect(screen.getByRole('status', { name: 'Typing…' }).textContent).toBe('Typing…'); // said as its content too
      await act(async () => void (await vi.advanceTimersByTimeAsync(10_500))); // 30 s after the question: nobody is typing any more
      expect(screen.queryByRole('status', { name: 'Typing…' })).toBeNull();

      cleanup();
      await mount(asked(60_000)); // asked a minute ago: no dots
      expect(screen.queryByRole('status', { name: 'Typing…' })).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['model_unavailable_in_region', "The assistant can't answer: its AI model isn't available in the region this chat runs in."],
    ['budget_exhausted', "The assistant has reached its usage limit and can't answer for now."],
    ['upstream_unavailable', "The assistant can't answer right now. Please try again later."],
  ])('says in plain words why the assistant cannot answer (%s)', async (code, words) => {
    seedSession();
    await mount(routes);
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    act(() => FakeEventSource.last.emit('error', { code, message: 'upstream detail' }, 1));
    expect(screen.getByRole('alert').textContent).toBe(words);
  });

  it('hands over to a person, shows the banner, then ends and starts afresh', async () => {
    seedSession();
    const { api } = await mount(routes);
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    const human = screen.getByRole('button', { name: 'Talk to a person' });
    human.focus();
    fireEvent.click(human);
    await act(flush);
    expect(api.to('POST', '/api/escalate')[0]!.auth).toBe('Bearer tok1');
    // The button is gone; focus is in the text box, not on <body>, so Escape still closes the panel.
    expect(document.activeElement).toBe(textbox());
    act(() => FakeEventSource.last.emit('state', { state: 'escalated' }, 1));
    expect(screen.getByRole('status').textContent).toBe('A person from our team will take it from here.');
    expect(screen.queryByRole('button', { name: 'Talk to a person' })).toBeNull();

    act(() => FakeEventSource.last.emit('archived', {}, 2));
    expect(screen.getByText('This conversation has ended.')).toBeTruthy();
    expect(screen.queryByRole('textbox')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Start a new conversation' }));
    expect(textbox()).toBeTruthy();
    expect(screen.queryByText(/onerror/)).toBeNull();
    expect(localStorage.getItem(KEY)).toBeNull();
  });
});
