import { describe, expect, it } from 'vitest';
import { EnvelopeError, conversationKey, normalizeWebhook, toIso, toMessage, unwrapList } from './agent-shapes.js';

const raw = (body: unknown) => new TextEncoder().encode(JSON.stringify(body));
const normalize = (body: unknown, timestamp = '1764000000') => normalizeWebhook(body, raw(body), timestamp, ['plan', 'email']);

describe('conversationKey', () => {
  it.each([
    [42, '42'],
    ['42', '42'],
    [' 0042 ', '42'],
    ['conv_a.b:c-1', 'conv_a.b:c-1'],
    [-1, undefined],
    [1.5, undefined],
    [Number.MAX_SAFE_INTEGER + 1, undefined],
    ['', undefined],
    ['has space', undefined],
    ['x'.repeat(129), undefined],
    [null, undefined],
    [{}, undefined],
  ])('%j → %j', (value, expected) => {
    expect(conversationKey(value)).toBe(expected);
  });
});

describe('toIso', () => {
  it.each([
    [1_700_000_000, '2023-11-14T22:13:20.000Z'],
    [1_700_000_000_000, '2023-11-14T22:13:20.000Z'],
    ['1700000000', '2023-11-14T22:13:20.000Z'],
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05.000Z'],
    [0, undefined],
    [-5, undefined],
    ['not a date', undefined],
    ['', undefined],
    [Number.NaN, undefined],
    [undefined, undefined],
  ])('%j → %j', (value, expected) => {
    expect(toIso(value)).toBe(expected);
  });

  it('writes what Date#toISOString writes, in any order of calls (within a second, across seconds, years and the edges)', () => {
    const samples = [
      1_763_895_005_000, 1_763_895_005_007, 1_763_895_005_042, 1_763_895_005_999, 1_763_895_006_000, 1_763_895_005_500.9,
      1_763_895_005, 1_763_895_005.25, 86_399_999, 951_782_400_000, 253_402_300_799_999, 253_402_300_800_000, 8.64e15,
      '2024-02-29T23:59:59.999Z', '1969-07-20T20:17:40Z', '2024-01-02T03:04:05+02:00',
    ];
    for (const value of [...samples, ...samples.slice().reverse()]) {
      const ms = typeof value === 'number' ? (value < 1e11 ? value * 1000 : value) : Date.parse(value);
      expect([value, toIso(value)]).toEqual([value, new Date(ms).toISOString()]);
    }
    expect(toIso(8.64e15 + 1)).toBeUndefined();
  });
});

describe('toMessage: every spelling the service uses', () => {
  it.each([
    ['id + message + hbo', { id: 1, message: 'Hi', hbo: 'bot' }, { id: '1', role: 'bot', text: 'Hi' }],
    ['messageId + text + role user', { messageId: 'm2', text: 'Hello', role: 'user' }, { id: 'm2', role: 'user', text: 'Hello' }],
    ['message_id + content + sender agent', { message_id: 'm3', content: 'Yo', sender: 'agent' }, { id: 'm3', role: 'bot', text: 'Yo' }],
    ['operator with a name', { id: 4, body: 'On it', from: 'operator', username: 'Sam' }, { id: '4', role: 'operator', text: 'On it', operatorName: 'Sam' }],
    ['human counts as operator', { id: 5, message: 'Hi', hbo: 'HUMAN' }, { id: '5', role: 'operator', text: 'Hi' }],
    ['unknown role reads as bot', { id: 6, message: 'Hi', role: 'robot' }, { id: '6', role: 'bot', text: 'Hi' }],
    ['created_at in seconds', { id: 7, message: 'Hi', created_at: 1_700_000_000 }, { id: '7', createdAt: '2023-11-14T22:13:20.000Z' }],
  ])('%s', (_name, item, expected) => {
    expect(toMessage(item)).toMatchObject(expected);
  });

  it.each([
    ['no id and no fallback', { message: 'Hi' }],
    ['no text', { id: 1 }],
    ['blank text', { id: 1, message: '   ' }],
    ['id of the wrong type', { id: { x: 1 }, message: 'Hi' }],
  ])('%s → undefined', (_name, item) => {
    expect(toMessage(item)).toBeUndefined();
  });

  it("reads a role or an operator's name that Object has (constructor) as unknown words, not as Object's", () => {
    expect(toMessage({ id: 1, message: 'Hi', hbo: 'constructor' }, '2024-01-01T00:00:00.000Z')).toMatchObject({ role: 'bot', author: { kind: 'bot' } });
    const book = { bot: { name: 'Juniper' }, operators: { ada: { name: 'Ada' } } };
    const m = toMessage({ id: 2, message: 'Hello', hbo: 'operator', username: 'constructor' }, '2024-01-01T00:00:00.000Z', undefined, book);
    expect(m).toMatchObject({ role: 'operator', author: { kind: 'operator', name: 'constructor' } });
  });

  it('takes the fallback id and time when the item has none', () => {
    expect(toMessage({ message: 'Hi' }, '2024-01-01T00:00:00.000Z', 'ev-1')).toEqual({ id: 'ev-1', role: 'bot', author: { kind: 'bot' }, text: 'Hi', createdAt: '2024-01-01T00:00:00.000Z' });
  });

  it('reads a rich element given as an object as a badge', () => {
    const message = toMessage({ id: 1, message: { type: 'buttons', text: 'Pick one', buttons: [{ title: 'A', payload: 'a' }] } });
    expect(message?.badge).toBeDefined();
  });
});

describe('unwrapList', () => {
  it.each([
    ['a bare array', [{ id: 1 }, 2, null], [{ id: 1 }]],
    ['{messages}', { messages: [{ id: 1 }] }, [{ id: 1 }]],
    ['{data}', { data: [{ id: 2 }] }, [{ id: 2 }]],
    ['{items}', { items: [{ id: 3 }] }, [{ id: 3 }]],
    ['{results}', { results: [{ id: 4 }] }, [{ id: 4 }]],
    ['one level nested', { data: { messages: [{ id: 5 }] } }, [{ id: 5 }]],
    ['two levels nested is too deep', { data: { data: { messages: [{ id: 6 }] } } }, []],
    ['not a list', { messages: 'no' }, []],
    ['nothing', undefined, []],
  ])('%s', (_name, body, expected) => {
    expect(unwrapList(body)).toEqual(expected);
  });
});

describe('normalizeWebhook', () => {
  it.each([
    [
      'a bot message',
      { event: 'message.added', eventId: 'e1', sessionId: 7, data: { id: 'm1', message: 'Hi', hbo: 'bot' } },
      { kind: 'message.added', dedupKey: 'e1', conversationId: '7', event: { event: 'message', data: { id: 'm1', role: 'bot', text: 'Hi' } } },
    ],
    [
      "the user's own message is left out",
      { event: 'message.added', eventId: 'e2', sessionId: 7, data: { id: 'm2', message: 'Hi', hbo: 'user' } },
      { conversationId: '7', event: undefined, skipped: "the user's own message" },
    ],
    [
      'a message without text is left out',
      { event: 'message.added', eventId: 'e3', sessionId: 7, data: { id: 'm3' } },
      { event: undefined, skipped: 'no message text' },
    ],
    [
      "a state change (state under data.status), in the widget's words",
      { event: 'conversation.state_changed', eventId: 'e4', session: '7', data: { status: 'closed' } },
      { conversationId: '7', event: { event: 'state', data: { state: 'archived' } } },
    ],
    [
      'archived',
      { event: 'conversation.archived', eventId: 5, sessionId: 7 },
      { dedupKey: '5', event: { event: 'archived', data: {} } },
    ],
    [
      'variables',
      { event: 'user.variables.updated', eventId: 'e6', sessionId: 7, data: { plan: 'pro' } },
      { event: { event: 'variables', data: { plan: 'pro' } } },
    ],
    [
      'variables keep only the names the browser may know',
      { event: 'user.variables.updated', eventId: 'e6b', sessionId: 7, data: { plan: 'pro', riskScore: 9, internalNote: 'VIP, refund fraud?' } },
      { event: { event: 'variables', data: { plan: 'pro' } }, skipped: undefined },
    ],
    [
      'a variable the browser may not know is left out',
      { event: 'user.variables.created', eventId: 'e6c', sessionId: 7, data: { riskScore: 9 } },
      { conversationId: '7', event: undefined, skipped: undefined },
    ],
    [
      'variables as name and value',
      { event: 'user.variables.updated', eventId: 'e6d', sessionId: 7, data: { name: 'crmId', value: 'X-1' } },
      { event: undefined },
    ],
    [
      'an allowed variable as name and value',
      { event: 'user.variables.updated', eventId: 'e6e', sessionId: 7, data: { name: 'email', value: 'ada@example.com', by: 'agent-7' } },
      { event: { event: 'variables', data: { name: 'email', value: 'ada@example.com' } } },
    ],
    [
      'a known kind without a session',
      { event: 'message.added', eventId: 'e7', data: { id: 'm', message: 'Hi' } },
      { conversationId: undefined, skipped: 'no valid "sessionId"' },
    ],
    [
      'conversation.created carries nothing to show',
      { event: 'conversation.created', eventId: 'e8' },
      { kind: 'conversation.created', skipped: undefined, event: undefined },
    ],
    [
      'an unknown kind is acknowledged and left out silently',
      { event: 'something.new', eventId: 'e9', sessionId: 7 },
      { kind: 'something.new', event: undefined, skipped: undefined },
    ],
  ])('%s', (_name, body, expected) => {
    // Absent fields read as undefined, so a row can say "no event" and mean it.
    const absent = { conversationId: undefined, event: undefined, skipped: undefined };
    expect({ ...absent, ...normalize(body) }).toMatchObject(expected);
  });

  it("dates a message by the service's createdAt, else by the webhook's signed timestamp", () => {
    const message = (body: object) => (normalize({ event: 'message.added', eventId: 'e', sessionId: 7, data: { id: 'm', message: 'Hi', hbo: 'bot' }, ...body }).event!.data as { createdAt?: string }).createdAt;
    expect(message({ createdAt: 1_700_000_000_123 })).toBe('2023-11-14T22:13:20.123Z');
    expect(message({})).toBe(new Date(1_764_000_000_000).toISOString());
  });

  it('dedups on the body id, else a hash of the signed timestamp and body', () => {
    const body = { event: 'conversation.archived', sessionId: 7 };
    expect(normalize({ ...body, eventId: 'b' }, '1764000001').dedupKey).toBe('b');
    const hashed = normalize(body).dedupKey;
    expect(hashed).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(normalize(body).dedupKey).toBe(hashed); // the same signed delivery again
    expect(normalize(body, '1764000001').dedupKey).not.toBe(hashed); // signed at another time
  });

  it.each([
    ['not an object', [1, 2]],
    ['null', null],
    ['no event kind', { sessionId: 7 }],
    ['an empty event kind', { event: '' }],
  ])('refuses an unusable envelope: %s', (_name, body) => {
    expect(() => normalize(body)).toThrow(EnvelopeError);
  });
});

describe('conversation states reach the widget in its own words', () => {
  const stateChange = (data: Record<string, unknown>) => normalize({ event: 'conversation.state_changed', eventId: 'e1', sessionId: 42, data }).event;

  it.each([
    ['escalated', 'escalated'],
    ['ESCALATED', 'escalated'],
    ['archived', 'archived'],
    ['closed', 'archived'],
    ['conversation_ended', 'archived'],
    ['resolved', 'archived'],
    ['active', 'active'],
    ['bot', 'active'],
    ['waiting_for_agent', 'active'],
  ])('the service says %s: the stream says %s', (word, expected) => {
    expect(stateChange({ state: word })).toEqual({ event: 'state', data: { state: expected } });
  });

  it('reads the state under the other field names the service may use', () => {
    expect(stateChange({ newState: 'escalated' })).toEqual({ event: 'state', data: { state: 'escalated' } });
  });

  it('a state change without any state stores nothing', () => {
    expect(stateChange({})).toBeUndefined();
  });
});
