import { describe, expect, it, vi } from 'vitest';
import { createStore } from './store.js';
import { BFF, FakeEventSource, flush, KEY, mockFetch, PUBLIC_CONFIG, seedSession, sessionBody, stored, storeUnderTest } from '../test/support.js';

const { start, events } = storeUnderTest();

describe('sending', () => {
  it('keeps a half-typed message across a reload of the tab, and forgets it once sent', async () => {
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'POST /api/session': { status: 201, body: sessionBody(1) } });
    const before = start();
    await flush();
    before.actions.setDraft('Do you ship to Nor');
    before.actions.destroy();
    const after = start();
    await flush();
    expect(after.state.draft.value).toBe('Do you ship to Nor');
    after.actions.setDraft('Do you ship to Norway?');
    after.actions.submit();
    await flush();
    expect(after.state.draft.value).toBe('');
    expect(start().state.draft.value).toBe('');
  });

  it("sends the page's locale (an en_US slip mended), else the browser's, with the conversation's first message", async () => {
    const api = mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'POST /api/session': { status: 201, body: sessionBody(1) } });
    const s = createStore(BFF, () => {}, undefined, undefined, undefined, 'pt_BR');
    void s.actions.boot();
    s.actions.send('Olá');
    await flush();
    expect(api.to('POST', '/api/session')[0]!.body).toMatchObject({ text: 'Olá', locale: 'pt-BR' });
    s.actions.destroy();
  });

  it('shows the message at once, starts the conversation with its clientId and reconciles the echo', async () => {
    const api = mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'POST /api/session': { status: 201, body: sessionBody(1) } });
    const s = start();
    s.actions.send('Hello');
    expect(s.state.messages.value).toMatchObject([{ role: 'user', text: 'Hello', pending: 'sending' }]);
    await flush();

    const [call] = api.to('POST', '/api/session');
    // The browser's language goes along, for the agent to answer in (LOCALE_VARIABLE).
    expect(call!.body).toEqual({ text: 'Hello', clientId: s.state.messages.value[0]!.clientId, startKey: expect.stringMatching(/^[\d_]{16,64}$/), locale: navigator.language, pageUrl: location.href.split('#')[0] });
    expect(stored()).toMatchObject({ sessionId: 's1', token: 'tok1', refreshToken: 'ref1' });
    expect(FakeEventSource.last.token).toBe('tok1');
    expect(s.state.typing.value).toBe(true);

    FakeEventSource.last.emit('message', { id: 'u_1', role: 'user', text: 'Hello', clientId: call!.body.clientId }, 1);
    FakeEventSource.last.emit('message', { id: '42', role: 'bot', text: 'Hi there' }, 2);
    expect(s.state.messages.value.map((m) => [m.id, m.pending])).toEqual([
      ['u_1', undefined],
      ['42', undefined],
    ]);
    expect(s.state.typing.value).toBe(false);
    expect(stored().lastEventId).toBe('2');
    expect(events.filter(([n]) => n === 'message')).toHaveLength(2);
  });

  it('gives a refused message back to the composer and reports the error', async () => {
    seedSession();
    mockFetch({
      'GET /api/messages': { body: { items: [], limit: 20, offset: 0, hasMore: false } },
      'POST /api/messages': { status: 502, body: { error: { code: 'upstream_error', message: 'Refused upstream' } } },
    });
    const s = start();
    s.actions.setDraft('Where is my order?');
    s.actions.submit();
    expect(s.state.draft.value).toBe('');
    await flush();
    expect(s.state.draft.value).toBe('Where is my order?');
    expect(s.state.failed.value).toBe(true);
    expect(s.state.messages.value).toEqual([]);
    expect(events).toContainEqual(['error', { code: 'upstream_error', message: 'Refused upstream' }]);
  });

  it('a message refused for now (429, 503: nothing was sent) stays "sending" and goes again by itself', async () => {
    seedSession();
    let refusals = 0;
    const api = mockFetch({
      'GET /api/messages': { body: { items: [], hasMore: false } },
      'POST /api/messages': () => (refusals++ < 1 ? { status: 429, body: { error: { code: 'rate_limited', message: 'Slow down' } } } : { status: 202, body: {} }),
    });
    const s = start();
    await flush();
    s.actions.send('Where is my order?');
    await flush();
    expect([s.state.messages.value[0]?.pending, s.state.failed.value, s.state.draft.value]).toEqual(['sending', false, '']);
    await vi.waitFor(() => expect(s.state.messages.value[0]?.pending).toBeUndefined(), { timeout: 4_000 });
    expect(api.to('POST', '/api/messages').map((c) => c.body.text)).toEqual(['Where is my order?', 'Where is my order?']);
  });

  it('a send that may have reached the service (send_uncertain) says so, and is not offered again; not once the stream brought it', async () => {
    seedSession();
    const uncertain = { status: 502, body: { error: { code: 'send_uncertain', message: 'This may have been sent' } } };
    let streamFirst = false;
    const api = mockFetch({
      'GET /api/messages': { body: { items: [], hasMore: false } },
      'POST /api/messages': (call) => {
        // The BFF found the message in the service's history and put it on the stream before this answer arrived.
        if (streamFirst) FakeEventSource.last.emit('message', { id: 'u_9', role: 'user', text: call.body.text, clientId: call.body.clientId }, 9);
        return uncertain;
      },
    });
    const s = start();
    await flush();
    s.actions.send('Did it go?');
    await flush();
    expect(s.state.messages.value.map((m) => [m.text, m.pending])).toEqual([['Did it go?', 'uncertain']]);
    expect([s.state.failed.value, s.state.draft.value]).toEqual([false, '']);

    streamFirst = true;
    s.actions.send('And this one?');
    await flush();
    expect(s.state.messages.value.map((m) => [m.text, m.pending])).toEqual([
      ['Did it go?', 'uncertain'],
      ['And this one?', undefined],
    ]);
    expect(api.to('POST', '/api/messages')).toHaveLength(2); // neither is sent again
  });

  it('queues messages typed offline and sends them in order once back online', async () => {
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const api = mockFetch({ 'POST /api/session': { status: 201, body: sessionBody(1) }, 'POST /api/messages': { status: 202, body: {} } });
    const s = start();
    s.actions.send('one');
    s.actions.send('two');
    await flush();
    expect(api.to('POST', '/api/')).toHaveLength(0);
    expect(s.state.messages.value.map((m) => m.pending)).toEqual(['queued', 'queued']);
    expect(JSON.parse(sessionStorage.getItem(KEY + ':q')!)).toHaveLength(2);

    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    await flush();
    expect(api.to('POST', '/api/session')[0]!.body.text).toBe('one');
    expect(api.to('POST', '/api/messages')[0]!.body.text).toBe('two');
    expect(s.state.messages.value.map((m) => m.pending)).toEqual([undefined, undefined]);
    expect(JSON.parse(sessionStorage.getItem(KEY + ':q')!)).toEqual([]);
  });

  it('keeps a message that hit a network failure queued until the network is back', async () => {
    let down = true;
    mockFetch({ 'POST /api/session': () => (down ? 'network' : { status: 201, body: sessionBody(1) }) });
    const s = start();
    s.actions.send('still there?');
    await flush();
    expect(s.state.messages.value[0]!.pending).toBe('queued');
    expect(s.state.failed.value).toBe(false);
    down = false;
    window.dispatchEvent(new Event('online'));
    await flush();
    expect(s.state.messages.value[0]!.pending).toBeUndefined();
    expect(stored().sessionId).toBe('s1');
  });

  it('starts a conversation with a secret startKey, kept with the message, the same on the try after a lost answer', async () => {
    let down = true;
    const api = mockFetch({ 'POST /api/session': () => (down ? 'network' : { status: 201, body: sessionBody(1) }) });
    const s = start();
    s.actions.send('lost answer?');
    await flush();
    const [kept] = JSON.parse(sessionStorage.getItem(KEY + ':q')!) as Array<{ key: string; clientId: string }>;
    expect(kept!.key).toMatch(/^\d+_\d+_\d+_\d+$/);
    expect(kept!.key.length).toBeGreaterThanOrEqual(16);
    down = false;
    window.dispatchEvent(new Event('online'));
    await flush();
    const tries = api.to('POST', '/api/session').map((r) => r.body.startKey);
    expect(tries).toEqual([kept!.key, kept!.key]);
    expect(kept!.key).not.toBe(kept!.clientId);
  });
});

describe('credentials', () => {
  it('refreshes the token after a 401 token_expired and retries the request once', async () => {
    seedSession();
    let sends = 0;
    const api = mockFetch({
      'GET /api/messages': { body: { items: [], hasMore: false } },
      'POST /api/messages': () => (sends++ ? { status: 202, body: {} } : { status: 401, body: { error: { code: 'token_expired', message: 'expired' } } }),
      'POST /api/token': { body: { token: 'tok2', refreshToken: 'ref2', expiresAt: new Date(Date.now() + 900_000).toISOString() } },
    });
    const s = start();
    await flush();
    s.actions.send('hello');
    await flush();
    expect(api.to('POST', '/api/token').map((c) => c.body)).toEqual([{ refreshToken: 'ref1' }]);
    expect(api.to('POST', '/api/messages').map((c) => c.auth)).toEqual(['Bearer tok1', 'Bearer tok2']);
    expect(stored()).toMatchObject({ token: 'tok2', refreshToken: 'ref2' });
    expect(s.state.failed.value).toBe(false);
  });

  it('refreshes a token that is about to expire before opening the stream', async () => {
    seedSession({ expiresAt: new Date(Date.now() + 2000).toISOString() });
    mockFetch({
      'GET /api/messages': { body: { items: [], hasMore: false } },
      'POST /api/token': { body: { token: 'tok2', refreshToken: 'ref2', expiresAt: new Date(Date.now() + 900_000).toISOString() } },
    });
    start();
    await flush();
    expect(FakeEventSource.all.map((e) => e.token)).toEqual(['tok2']);
  });

  it('after the stream says token_expired, refreshes and reconnects with the new token', async () => {
    seedSession({ lastEventId: '3' });
    const api = mockFetch({
      'GET /api/messages': { body: { items: [], hasMore: false } },
      'POST /api/token': { body: { token: 'tok2', refreshToken: 'ref2', expiresAt: new Date(Date.now() + 900_000).toISOString() } },
    });
    start();
    await flush();
    FakeEventSource.last.emit('error', { code: 'token_expired', message: 'expired' }, 3);
    await flush();
    expect(api.to('POST', '/api/token')).toHaveLength(1);
    expect(FakeEventSource.all[0]!.closed).toBe(true);
    expect(FakeEventSource.last.token).toBe('tok2');
    expect(new URL(FakeEventSource.last.url).searchParams.get('lastEventId')).toBe('3');
  });

  it('after the stream says reset (events may be gone after a BFF restart), reloads the newest history page', async () => {
    seedSession({ lastEventId: '3' });
    let pages = 0;
    const api = mockFetch({
      'GET /api/messages': () => ({ body: { items: pages++ ? [{ id: '9', role: 'bot', text: 'missed while away' }] : [], hasMore: false } }),
    });
    const s = start();
    await flush();
    expect(api.to('GET', '/api/messages')).toHaveLength(1);
    FakeEventSource.last.emit('reset', {}, 3); // sent without an id: the last one stays
    await flush();
    expect(api.to('GET', '/api/messages')).toHaveLength(2);
    expect(s.state.messages.value.map((m) => m.text)).toEqual(['missed while away']);
    expect(stored().lastEventId).toBe('3');
  });

  it('adopts a conversation another tab started, and follows its reset', async () => {
    const api = mockFetch({ 'GET /api/messages': { body: { items: [{ id: '1', role: 'bot', text: 'from tab A' }], hasMore: false } } });
    const s = start();
    await flush();
    seedSession();
    window.dispatchEvent(new StorageEvent('storage', { key: KEY }));
    await flush();
    expect(api.to('GET', '/api/messages')).toHaveLength(1);
    expect(s.state.messages.value.map((m) => m.text)).toEqual(['from tab A']);
    expect(FakeEventSource.last.token).toBe('tok1');

    localStorage.removeItem(KEY);
    window.dispatchEvent(new StorageEvent('storage', { key: KEY }));
    expect(s.state.messages.value).toEqual([]);
    expect(FakeEventSource.last.closed).toBe(true);
  });
});

describe('what the panel knows, kept true', () => {
  it('a reload while the BFF is out of reach: the history and the settings come once the stream is back', async () => {
    seedSession();
    let down = true;
    mockFetch({
      'GET /api/config': () => (down ? 'network' : { body: PUBLIC_CONFIG }),
      'GET /api/messages': () => (down ? 'network' : { body: { items: [{ id: '1', role: 'user', text: 'hello' }], hasMore: false } }),
    });
    const s = start();
    await flush();
    expect([s.state.messages.value.length, s.state.config.value]).toEqual([0, undefined]);
    down = false;
    FakeEventSource.last.open();
    await flush();
    expect(s.state.messages.value.map((m) => m.text)).toEqual(['hello']);
    expect(s.state.config.value).toEqual(PUBLIC_CONFIG);
  });

  it('a reload after the session ran out says the conversation is no longer available, not a silent new one', async () => {
    seedSession({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    mockFetch({
      'GET /api/config': { body: PUBLIC_CONFIG },
      'POST /api/token': { status: 401, body: { error: { code: 'token_expired', message: 'expired' } } },
      'GET /api/messages': { status: 401, body: { error: { code: 'token_expired', message: 'expired' } } },
    });
    const s = start();
    // The refresh waits a moment before it gives up (another tab may have just rotated the token).
    await vi.waitFor(() => expect([s.state.convo.value, s.state.gone.value]).toEqual(['archived', true]));
  });

  it('a conversation handed back to the assistant offers a person again, and no longer says one is coming', async () => {
    seedSession();
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /api/messages': { body: { items: [], hasMore: false } }, 'POST /api/escalate': { status: 202, body: {} } });
    const s = start();
    await flush();
    await s.actions.escalate();
    expect(s.state.awaitingPerson.value).toBe(true);
    FakeEventSource.last.emit('state', { state: 'escalated' }, 4);
    FakeEventSource.last.emit('message', { id: '5', role: 'operator', text: 'Mara here', author: { kind: 'operator', name: 'Mara' } }, 5);
    FakeEventSource.last.emit('state', { state: 'active' }, 6);
    await flush();
    expect([s.state.canEscalate.value, s.state.awaitingPerson.value]).toEqual([true, false]);
  });

  it("asks the settings again at the team's opening time, past the browser's cached copy", async () => {
    const closed = { ...PUBLIC_CONFIG, handoff: { offer: 'always', open: false, opensAt: new Date(Date.now() + 100).toISOString(), replyTime: 'minutes', launcher: 'show' } };
    let asked = 0;
    const api = mockFetch({ 'GET /api/config': () => ({ body: asked++ ? { ...closed, handoff: { ...closed.handoff, open: true, opensAt: undefined } } : closed }) });
    const s = start();
    await vi.waitFor(() => expect(s.state.config.value?.handoff?.open).toBe(false));
    await vi.waitFor(() => expect(s.state.config.value?.handoff?.open).toBe(true), { timeout: 3_000 });
    expect(api.to('GET', '/api/config')).toHaveLength(2);
    expect(api.fn.mock.calls[1]![1]).toMatchObject({ cache: 'no-cache' });
  });
});

describe('the hours on a clock ahead of the BFF', () => {
  it('an opening time already past here is asked again a minute later, not at once and again', async () => {
    const past = { ...PUBLIC_CONFIG, handoff: { offer: 'always', open: false, opensAt: new Date(Date.now() - 5_000).toISOString(), replyTime: 'minutes', launcher: 'show' } };
    const api = mockFetch({ 'GET /api/config': { body: past } });
    const s = start();
    await vi.waitFor(() => expect(s.state.config.value?.handoff?.open).toBe(false));
    await flush(50);
    expect(api.to('GET', '/api/config')).toHaveLength(1);
  });
});
