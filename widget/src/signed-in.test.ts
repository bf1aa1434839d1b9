import { describe, expect, it, vi } from 'vitest';
import { createStore, type Store } from './store.js';
import { BFF, FakeEventSource, flush, freshBrowserEachTest, KEY, mockFetch, PUBLIC_CONFIG, seedSession, sessionBody, stored } from '../test/support.js';

let store: Store | undefined;

/** A JWT-shaped identity token (the widget only reads `sub` and `exp`; the BFF verifies it). */
// A fixed expiry far ahead: a token made twice in one test is the same token, whatever the clock says.
function identityToken(sub: string, expSec = 4_102_444_800): string {
  const part = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '');
  return `${part({ alg: 'HS256' })}.${part({ sub, exp: expSec })}.sig`;
}

const ada = { id: 'ada', name: 'Ada' };
const signedIn = (n: number, user = ada) => ({ ...sessionBody(n), user });
const history = { body: { items: [], limit: 20, offset: 0, hasMore: false } };
// POST /api/session's answer to a signed-in user with no open conversation (docs/api.md "Signed-in users").
const userToken = { token: 'user-tok', expiresAt: new Date(Date.now() + 3_600_000).toISOString(), user: ada };

function start(identity?: Parameters<typeof createStore>[3]) {
  store = createStore(BFF, () => {}, undefined, identity);
  void store.actions.boot();
  return store;
}

freshBrowserEachTest(() => {
  store?.actions.destroy();
  store = undefined;
});

describe('signed-in users', () => {
  it('resumes the user’s active conversation at boot (another device started it) and shows the Conversations entry', async () => {
    const api = mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'POST /api/session': { status: 201, body: signedIn(7) }, 'GET /api/messages': history });
    const s = start(identityToken('ada'));
    await flush();
    expect(api.to('POST', '/api/session')[0]!.body).toEqual({ identityToken: identityToken('ada') });
    expect(stored()).toMatchObject({ sessionId: 's7', user: ada });
    expect(s.state.user.value).toEqual(ada);
    expect(FakeEventSource.last.token).toBe('tok7');
  });

  it('waits for the first message when the user has no conversation yet, then starts one with the identity token', async () => {
    const api = mockFetch({
      'GET /api/config': { body: PUBLIC_CONFIG },
      'POST /api/session': (call) => (call.body.text ? { status: 201, body: signedIn(2) } : { body: userToken }),
    });
    const s = start(identityToken('ada'));
    await flush();
    expect(stored()).toBeNull();
    // Signed in without a conversation: the Conversations entry is there.
    expect(s.state.user.value).toEqual(ada);
    s.actions.send('Hello');
    await flush();
    const first = api.to('POST', '/api/session')[1]!;
    expect(first.body).toMatchObject({ text: 'Hello', identityToken: identityToken('ada'), locale: navigator.language });
    expect(first.body.profileName).toBeUndefined();
    expect(s.state.user.value).toEqual(ada);
  });

  it('leaves the page’s profileName out where the BFF verifies identities', async () => {
    const api = mockFetch({ 'GET /api/config': { body: { ...PUBLIC_CONFIG, identity: 'optional' } }, 'POST /api/session': { status: 201, body: sessionBody(1) } });
    store = createStore(BFF, () => {}, 'Page-given name');
    await store.actions.boot();
    store.actions.send('Hello');
    await flush();
    expect(api.to('POST', '/api/session')[0]!.body).toEqual({ text: 'Hello', clientId: expect.any(String), startKey: expect.any(String), locale: navigator.language, pageUrl: location.href.split('#')[0] });
  });

  it('asks the page’s function again once the token it gave has expired', async () => {
    const fresh = identityToken('ada');
    const tokens = [identityToken('ada', Math.floor(Date.now() / 1000) - 5), fresh];
    const source = vi.fn(async () => tokens.shift()!);
    const api = mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'POST /api/session': { body: userToken } });
    const s = start(source);
    await flush();
    s.actions.send('Hi');
    await flush();
    expect(source).toHaveBeenCalledTimes(2);
    expect(api.to('POST', '/api/session').map((c) => c.body.identityToken)).toEqual([expect.any(String), fresh]);
  });

  it('identify after a login claims this conversation, or switches to the user’s and says so', async () => {
    seedSession();
    let switched = false;
    const api = mockFetch({
      'GET /api/config': { body: PUBLIC_CONFIG },
      'GET /api/messages': history,
      'POST /api/identify': () => ({ body: switched ? { ...signedIn(9), switched } : { ...signedIn(1), switched } }),
    });
    const s = start();
    await flush();
    s.actions.identify({ identityToken: identityToken('ada') });
    await flush();
    expect(api.to('POST', '/api/identify')[0]!.auth).toBe('Bearer tok1');
    expect([stored().sessionId, s.state.switched.value, s.state.user.value]).toEqual(['s1', false, ada]);

    localStorage.setItem(KEY, JSON.stringify(sessionBody(3)));
    store!.actions.destroy();
    switched = true;
    const again = start();
    await flush();
    again.actions.identify({ identityToken: identityToken('ada') });
    await flush();
    expect([stored().sessionId, again.state.switched.value]).toEqual(['s9', true]);
    expect(FakeEventSource.last.token).toBe('tok9');
  });

  it('does not show another user’s conversation left in this browser', async () => {
    seedSession({ user: { id: 'bob' } });
    const api = mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /api/messages': history, 'POST /api/session': { status: 201, body: signedIn(4) } });
    const s = start(identityToken('ada'));
    await flush();
    expect(api.to('POST', '/api/identify')).toHaveLength(0);
    expect([stored().sessionId, s.state.user.value]).toEqual(['s4', ada]);
  });

  it('lists the user’s conversations, opens a past one read-only, and starts a new one with the next message', async () => {
    seedSession({ user: ada });
    const past = { sessionId: 's0', title: 'Old question', state: 'archived', updatedAt: '2026-01-01T10:00:00.000Z' };
    const api = mockFetch({
      'GET /api/config': { body: PUBLIC_CONFIG },
      'GET /api/messages': (call) => (call.path.includes('sessionId=s0') ? { body: { items: [{ id: '1', role: 'user', text: 'Old question' }], limit: 50, offset: 0, hasMore: false } } : history),
      'GET /api/conversations': { body: { items: [past] } },
      'POST /api/conversations': { status: 201, body: signedIn(5) },
    });
    const s = start();
    await flush();
    await s.actions.listConversations();
    expect([s.state.view.value, s.state.conversations.value]).toEqual(['list', [past]]);
    await s.actions.openConversation(past as never);
    expect(s.state.view.value).toBe('past');
    expect(s.state.past.value!.messages.map((m) => m.text)).toEqual(['Old question']);

    s.actions.newConversation();
    expect([s.state.view.value, s.state.messages.value, s.state.user.value]).toEqual(['chat', [], ada]);
    s.actions.send('A new topic');
    await flush();
    expect(api.to('POST', '/api/conversations')[0]).toMatchObject({ auth: 'Bearer tok1', body: { text: 'A new topic' } });
    expect(stored().sessionId).toBe('s5');
  });

  it('with no open conversation, lists and reads the user’s conversations with the user token and continues an open one', async () => {
    const ended = { sessionId: 's0', title: 'Old question', state: 'archived', updatedAt: '2026-01-01T10:00:00.000Z' };
    const open = { sessionId: 's8', title: 'Still open', state: 'open', updatedAt: '2026-01-01T09:00:00.000Z' };
    const api = mockFetch({
      'GET /api/config': { body: PUBLIC_CONFIG },
      'POST /api/session': { body: userToken },
      'GET /api/conversations': { body: { items: [ended, open] } },
      'GET /api/messages': (call) => (call.path.includes('sessionId=s0') ? { body: { items: [{ id: '1', role: 'user', text: 'Old question' }], limit: 50, offset: 0, hasMore: false } } : history),
      'POST /api/conversations/s8/current': { body: signedIn(8) },
    });
    const s = start(identityToken('ada'));
    await flush();
    await s.actions.listConversations();
    expect(s.state.conversations.value).toEqual([ended, open]);
    expect(api.to('GET', '/api/conversations')[0]!.auth).toBe('Bearer user-tok');
    await s.actions.openConversation(ended as never);
    expect([s.state.view.value, s.state.past.value!.messages.map((m) => m.text)]).toEqual(['past', ['Old question']]);
    await s.actions.openConversation(open as never);
    expect(api.to('POST', '/api/conversations/s8/current')[0]!.auth).toBe('Bearer user-tok');
    expect([s.state.view.value, stored().sessionId, s.state.user.value]).toEqual(['chat', 's8', ada]);
  });

  it('reset on logout forgets the conversation, its tokens and the user; the next message is anonymous', async () => {
    const api = mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'POST /api/session': { status: 201, body: signedIn(7) }, 'GET /api/messages': history });
    const s = start(identityToken('ada'));
    await flush();
    const stream = FakeEventSource.last;
    s.actions.reset();
    expect([stored(), s.state.user.value, s.state.messages.value, stream.closed]).toEqual([null, undefined, [], true]);
    s.actions.send('Who am I now?');
    await flush();
    expect(api.to('POST', '/api/session').at(-1)!.body.identityToken).toBeUndefined();
  });

  it('a logout in another tab makes this tab forget the user too', async () => {
    const api = mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'POST /api/session': { status: 201, body: signedIn(7) }, 'GET /api/messages': history });
    const s = start(identityToken('ada'));
    await flush();
    localStorage.clear();
    dispatchEvent(new StorageEvent('storage', { key: KEY + ':logout', newValue: '1' }));
    dispatchEvent(new StorageEvent('storage', { key: KEY, newValue: null }));
    expect([s.state.user.value, s.state.messages.value, FakeEventSource.last.closed]).toEqual([undefined, [], true]);
    s.actions.send('Still signed in?');
    await flush();
    expect(api.to('POST', '/api/session').at(-1)!.body).toEqual({ text: 'Still signed in?', clientId: expect.any(String), startKey: expect.any(String), locale: navigator.language, pageUrl: location.href.split('#')[0] });
  });
});

describe('welcoming a signed-in visitor back', () => {
  it("welcomes one who comes back to their conversation (this browser's or another device's) until they write", async () => {
    const api = mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'POST /api/session': { status: 201, body: signedIn(7) }, 'POST /api/messages': { status: 202, body: {} }, 'GET /api/messages': history });
    const s = start(identityToken('ada'));
    await flush();
    expect(s.state.welcome.value).toBe(true);
    s.actions.send('Still there?');
    await flush();
    expect(api.to('POST', '/api/messages')).toHaveLength(1);
    expect(s.state.welcome.value).toBe(false);
  });

  it('welcomes one whose conversation is kept in this browser, without an identity token on this page', async () => {
    seedSession({ user: ada });
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /api/messages': history });
    const s = start();
    await flush();
    expect(s.state.welcome.value).toBe(true);
    s.actions.reset();
    expect(s.state.welcome.value).toBe(false);
  });

  it('does not welcome a user with no conversation yet, an anonymous visitor, nor a login that switched conversations (its own line says so)', async () => {
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'POST /api/session': { body: userToken } });
    const none = start(identityToken('ada'));
    await flush();
    expect([none.state.user.value, none.state.welcome.value]).toEqual([ada, false]);
    none.actions.destroy();

    seedSession();
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /api/messages': history, 'POST /api/identify': { body: { ...signedIn(9), switched: true } } });
    const anonymous = start();
    await flush();
    expect(anonymous.state.welcome.value).toBe(false);
    anonymous.actions.identify({ identityToken: identityToken('ada') });
    await flush();
    expect([anonymous.state.switched.value, anonymous.state.welcome.value]).toEqual([true, false]);
  });

  it("does not welcome the next user to another user's conversation left in this browser", async () => {
    seedSession({ user: { id: 'bob', name: 'Bob' } });
    mockFetch({ 'GET /api/config': { body: PUBLIC_CONFIG }, 'GET /api/messages': history, 'POST /api/session': { body: userToken } });
    const s = start(identityToken('ada'));
    await flush();
    expect([s.state.user.value, s.state.welcome.value]).toEqual([ada, false]);
  });
});

