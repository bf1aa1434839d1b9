import { describe, expect, it, vi } from 'vitest';
import { FakeEventSource, flush, KEY, mockFetch, seedSession, sessionBody, stored, storeUnderTest } from '../test/support.js';

const { start, events } = storeUnderTest();

describe('history and stream', () => {
  const page = (ids: string[], hasMore: boolean) => ({
    body: { items: ids.map((id) => ({ id, role: Number(id) % 2 ? 'bot' : 'user', text: 'm' + id })), limit: 20, offset: 0, hasMore },
  });

  it('restores the conversation, resumes the stream after the last event and merges by id in order', async () => {
    seedSession({ lastEventId: '7' });
    let first = true;
    const api = mockFetch({
      'GET /api/messages': (call) => (call.path.includes('offset=0') && first ? ((first = false), page(['1', '2', '3'], true)) : page(['0', '1'], false)),
    });
    const s = start();
    expect(FakeEventSource.all).toHaveLength(0); // the URL is built asynchronously
    await flush();
    expect(new URL(FakeEventSource.last.url).searchParams.get('lastEventId')).toBe('7');
    // The stream overlaps the history (3) and goes beyond it (4).
    FakeEventSource.last.emit('message', { id: '3', role: 'bot', text: 'm3' }, 8);
    FakeEventSource.last.emit('message', { id: '4', role: 'user', text: 'm4' }, 9);
    expect(s.state.messages.value.map((m) => m.id)).toEqual(['1', '2', '3', '4']);
    expect(s.state.hasMore.value).toBe(true);

    await s.actions.loadOlder();
    expect(api.to('GET', '/api/messages')[1]!.path).toBe('/api/messages?limit=20&offset=4');
    expect(s.state.messages.value.map((m) => m.id)).toEqual(['0', '1', '2', '3', '4']);
    expect(s.state.hasMore.value).toBe(false);
  });

  it('treats the same user message from history and stream as one', async () => {
    seedSession();
    const t = Date.now();
    mockFetch({
      'GET /api/messages': { body: { items: [{ id: '100', role: 'user', text: 'Hi', createdAt: new Date(t).toISOString() }], hasMore: false } },
    });
    const s = start();
    await flush();
    FakeEventSource.last.emit('message', { id: 'u_9', role: 'user', text: 'Hi', createdAt: new Date(t + 900).toISOString() }, 1);
    FakeEventSource.last.emit('message', { id: 'u_10', role: 'user', text: 'Hi again' }, 2);
    expect(s.state.messages.value.map((m) => m.text)).toEqual(['Hi', 'Hi again']);
  });

  it('counts unread answers while closed and clears them on open', async () => {
    seedSession();
    mockFetch({ 'GET /api/messages': { body: { items: [], hasMore: false } } });
    const s = start();
    await flush();
    FakeEventSource.last.emit('message', { id: '1', role: 'bot', text: 'a' }, 1);
    FakeEventSource.last.emit('message', { id: '1', role: 'bot', text: 'a' }, 1); // a replayed duplicate
    FakeEventSource.last.emit('message', { id: '2', role: 'operator', text: 'b', operatorName: 'Ana' }, 2);
    expect(s.state.unread.value).toBe(2);
    s.actions.setOpen(true);
    expect(s.state.unread.value).toBe(0);
    expect(events.filter(([n]) => n === 'unread').map(([, d]) => d)).toEqual([{ count: 1 }, { count: 2 }, { count: 0 }]);
  });

  it('keeps the unread count across a reload and in step with other tabs until the panel is opened', async () => {
    seedSession();
    mockFetch({ 'GET /api/messages': { body: { items: [], hasMore: false } } });
    const s = start();
    await flush();
    FakeEventSource.last.emit('message', { id: '1', role: 'operator', text: 'a' }, 1);
    FakeEventSource.last.emit('message', { id: '2', role: 'operator', text: 'b' }, 2);
    expect(s.state.unread.value).toBe(2);
    const unreadKey = Object.keys(localStorage).find((k) => k !== KEY)!;
    s.actions.destroy();

    const reloaded = start(); // the same page loaded again
    await flush();
    expect(reloaded.state.unread.value).toBe(2);
    // Another tab received the same message (not counted twice) and a new one.
    FakeEventSource.last.emit('message', { id: '2', role: 'operator', text: 'b' }, 2);
    FakeEventSource.last.emit('message', { id: '3', role: 'operator', text: 'c' }, 3);
    expect(reloaded.state.unread.value).toBe(3);
    // The user opens the panel in another tab: this one follows.
    const before = localStorage.getItem(unreadKey);
    localStorage.removeItem(unreadKey);
    dispatchEvent(new StorageEvent('storage', { key: unreadKey, oldValue: before, newValue: null }));
    expect(reloaded.state.unread.value).toBe(0);
    expect(events.filter(([n]) => n === 'unread').map(([, d]) => d)).toEqual([{ count: 2 }, { count: 3 }, { count: 0 }]);
  });

  it('follows state events: escalated, then archived; the next message starts a new conversation', async () => {
    seedSession();
    const api = mockFetch({
      'GET /api/messages': { body: { items: [{ id: '1', role: 'bot', text: 'hi' }], hasMore: false } },
      'POST /api/session': { status: 201, body: sessionBody(2) },
    });
    const s = start();
    await flush();
    FakeEventSource.last.emit('state', { state: 'escalated' }, 1);
    expect(s.state.convo.value).toBe('escalated');
    expect(stored().state).toBe('escalated');
    FakeEventSource.last.emit('archived', {}, 2);
    expect(s.state.convo.value).toBe('archived');

    s.actions.send('new question');
    expect(s.state.messages.value.map((m) => m.text)).toEqual(['new question']);
    await flush();
    expect(api.to('POST', '/api/session')).toHaveLength(1);
    expect(stored().sessionId).toBe('s2');
  });

  it('shows typing dots after a user message only while the agent answers: not once a person took over', async () => {
    seedSession();
    mockFetch({ 'GET /api/messages': { body: { items: [], hasMore: false } }, 'POST /api/messages': { status: 202, body: {} } });
    const s = start();
    await flush();
    FakeEventSource.last.emit('message', { id: 'u1', role: 'user', text: 'Hi' }, 1);
    expect(s.state.typing.value).toBe(true);
    FakeEventSource.last.emit('state', { state: 'escalated' }, 2);
    expect(s.state.typing.value).toBe(false);
    FakeEventSource.last.emit('message', { id: 'u2', role: 'user', text: 'Anyone there?' }, 3);
    expect(s.state.typing.value).toBe(false);
    s.actions.send('Hello?');
    await flush();
    expect(s.state.messages.value.at(-1)).toMatchObject({ text: 'Hello?', pending: undefined });
    expect(s.state.typing.value).toBe(false);
  });

  it('builds a streamed answer from message_delta events and closes it with the message', async () => {
    seedSession();
    mockFetch({ 'GET /api/messages': { body: { items: [], hasMore: false } } });
    const s = start();
    await flush();
    FakeEventSource.last.emit('message', { id: 'u1', role: 'user', text: 'Hi' }, 1);
    expect(s.state.typing.value).toBe(true);
    FakeEventSource.last.emit('message_delta', { id: 'm1', delta: 'Hel' }, 2);
    expect(s.state.typing.value).toBe(false);
    FakeEventSource.last.emit('message_delta', { id: 'm1', delta: 'lo' }, 3);
    expect(s.state.messages.value[1]).toMatchObject({ id: 'm1', role: 'bot', text: 'Hello', streaming: true });
    FakeEventSource.last.emit('message', { id: 'm1', role: 'bot', text: 'Hello!' }, 4);
    expect(s.state.messages.value.map((m) => [m.id, m.text, m.streaming])).toEqual([
      ['u1', 'Hi', undefined],
      ['m1', 'Hello!', undefined],
    ]);
  });

  it('sends the profile name with the first message and user variables once the conversation exists', async () => {
    const api = mockFetch({ 'POST /api/session': { status: 201, body: sessionBody(1) }, 'PATCH /api/user': { status: 204 } });
    const s = start();
    s.actions.identify({ profileName: 'Ada', variables: { plan: 'pro' } });
    expect(api.to('PATCH', '/api/user')).toHaveLength(0);
    s.actions.send('hello');
    await flush();
    expect(api.to('POST', '/api/session')[0]!.body).toMatchObject({ text: 'hello', profileName: 'Ada' });
    expect(api.to('PATCH', '/api/user').map((c) => [c.body, c.auth])).toEqual([[{ plan: 'pro' }, 'Bearer tok1']]);
  });

  it('says the BFF cannot be reached once the stream has been down a while, not for a quick reconnect', async () => {
    seedSession();
    let down = true;
    const api = mockFetch({ 'GET /api/messages': page([], false), 'POST /api/messages': () => (down ? 'network' : { status: 202, body: {} }) });
    const s = start();
    await flush();
    FakeEventSource.last.open();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      // Down, then back within the grace time: nobody is told.
      FakeEventSource.last.fail();
      await vi.advanceTimersByTimeAsync(2000);
      FakeEventSource.last.open();
      await vi.advanceTimersByTimeAsync(10_000);
      expect(s.state.reachable.value).toBe(true);
      // Down for good (the server is away): told after five seconds, and again when it is back.
      FakeEventSource.last.fail();
      await vi.advanceTimersByTimeAsync(4900);
      expect(s.state.reachable.value).toBe(true);
      await vi.advanceTimersByTimeAsync(200);
      expect(s.state.reachable.value).toBe(false);
      // Written meanwhile: it waits, and goes the moment the BFF is back, not at the queue's next try.
      s.actions.send('Still there?');
      await vi.advanceTimersByTimeAsync(30_000);
      const tries = api.to('POST', '/api/messages').length;
      down = false;
      FakeEventSource.last.open();
      expect(s.state.reachable.value).toBe(true);
      await vi.advanceTimersByTimeAsync(0);
      expect(api.to('POST', '/api/messages').length).toBe(tries + 1);
      expect(s.state.messages.value.at(-1)).toMatchObject({ text: 'Still there?', pending: undefined });
    } finally {
      vi.useRealTimers();
    }
  });
});
