import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { checkBody } from '../bff/src/lib/body.js';
import { ValidationError } from '../bff/src/errors.js';
import { ContactBody, FeedbackBody, FlowBody, FlowVariables, MessageBody, NewConversationBody, SessionBody, TokenBody, UploadFields, FlowFields, UserVariablesBody } from './bodies.js';

/** The code and message a body gets, or its checked value. */
function check(schema: v.GenericSchema, body: unknown): unknown {
  try {
    return checkBody(schema, body);
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return [err.code, err.message];
  }
}

describe('request body schemas (docs/api.md codes)', () => {
  it.each([
    [MessageBody, {}, ['text_invalid', '"text" must be a string']],
    [MessageBody, { text: 42 }, ['text_invalid', '"text" must be a string']],
    [MessageBody, { text: ' \r\n ' }, ['text_invalid', '"text" must not be empty']],
    [MessageBody, { text: 'x'.repeat(4001) }, ['text_invalid', '"text" must be at most 4000 characters']],
    [MessageBody, { text: 'hi', clientId: 'a b' }, ['invalid_request', '"clientId" must be 1 to 64 letters, digits, _ or -']],
    [MessageBody, { text: 'hi', clientId: 'c'.repeat(65) }, ['invalid_request', '"clientId" must be 1 to 64 letters, digits, _ or -']],
    [SessionBody, { text: 'hi', locale: 'German' }, ['invalid_request', '"locale" must be a language tag like de or pt-BR']],
    [SessionBody, { text: 'hi', locale: 'de_DE' }, ['invalid_request', '"locale" must be a language tag like de or pt-BR']],
    [SessionBody, { text: 'hi', locale: `de-${'x'.repeat(40)}` }, ['invalid_request', '"locale" must be a language tag like de or pt-BR']],
    [NewConversationBody, { text: 'hi', locale: 7 }, ['invalid_request', '"locale" must be a language tag like de or pt-BR']],
    [NewConversationBody, { identityToken: 't' }, ['text_invalid', '"text" must be a string']],
    [SessionBody, { text: 'hi', profileName: 'n'.repeat(101) }, ['invalid_request', '"profileName" must be a string of at most 100 characters']],
    [SessionBody, { text: 5 }, ['text_invalid', '"text" must be a string']],
    [TokenBody, {}, ['invalid_request', '"refreshToken" must be a string']],
    [TokenBody, { refreshToken: 'r'.repeat(4097) }, ['invalid_request', '"refreshToken" must be at most 4096 characters']],
    [ContactBody, {}, ['contact_invalid', '"email" must be an email address']],
    [ContactBody, { email: 'a\u0000<script>@b.co' }, ['contact_invalid', '"email" must be an email address']],
    [ContactBody, { email: 'ada@localhost' }, ['contact_invalid', '"email" must be an email address']],
    [ContactBody, { email: 'ada @example.com' }, ['contact_invalid', '"email" must be an email address']],
    [ContactBody, { email: `${'a'.repeat(250)}@b.co` }, ['contact_invalid', '"email" must be an email address']],
    [FeedbackBody, { value: 'up' }, ['invalid_request', '"messageId" must be a string']],
    [FeedbackBody, { messageId: 'a b', value: 'up' }, ['unknown_message', '"messageId" must be the id of an answer in this conversation']],
    [FeedbackBody, { messageId: 'm1', value: 'meh' }, ['feedback_invalid', '"value" must be "up" or "down"']],
    [FeedbackBody, { messageId: 'm1', value: 'down', comment: 3 }, ['feedback_invalid', '"comment" must be a string']],
    [FeedbackBody, { messageId: 'm1', value: 'down', comment: 'c'.repeat(1001) }, ['comment_too_long', '"comment" must be at most 1000 characters']],
  ] as const)('%#: refuses %j with its code and message', (schema, body, expected) => {
    expect(check(schema, body)).toEqual(expected);
  });

  it('gives the route typed, normalised values', () => {
    expect(check(MessageBody, { text: ' a\r\nb ', clientId: ' c-1 ', extra: true })).toEqual({ text: 'a\nb', clientId: 'c-1' });
    expect(check(SessionBody, { profileName: '', context: null })).toEqual({ identityToken: undefined, text: undefined, profileName: undefined, clientId: undefined, context: undefined });
    expect(check(SessionBody, { text: 'hi', locale: 'zh-Hant-TW' })).toMatchObject({ locale: 'zh-Hant-TW' });
    expect(check(NewConversationBody, { text: 'hi', locale: '' })).toMatchObject({ locale: undefined });
    expect(check(FeedbackBody, { messageId: 'm:1', value: 'up', comment: '  ' })).toEqual({ messageId: 'm:1', value: 'up', comment: undefined });
    expect(check(ContactBody, { email: " o'brien+chat@mail.example.co.uk ", name: ' Ada ' })).toEqual({ email: "o'brien+chat@mail.example.co.uk", name: 'Ada', consent: undefined });
  });
});

describe('flow variables', () => {
  it.each([
    [{ variables: [1] }, ['invalid_request', '"variables" must be an object of names to strings, numbers or booleans']],
    [{ variables: { a: 1 }, extra: 1 }, ['invalid_request', 'Unknown field "extra"; send {"variables": {...}}']],
    [{ variables: { 'a\u0001': 1 } }, ['invalid_request', 'Variable names must be 1 to 100 printable characters']],
    [{ variables: { '   ': 1 } }, ['invalid_request', 'Variable names must be 1 to 100 printable characters']],
    [{ variables: { 'a\u0085': 1 } }, ['invalid_request', 'Variable names must be 1 to 100 printable characters']],
    [{ variables: { '\u202eevil': 1 } }, ['invalid_request', 'Variable names must be 1 to 100 printable characters']],
    [{ variables: { ['é'.repeat(101)]: 1 } }, ['invalid_request', 'Variable names must be 1 to 100 printable characters']],
    [{ variables: { ok: 1, bad: { deep: true } } }, ['invalid_request', 'Variable "bad" must be a string (up to 10000 characters, without control characters or direction overrides), a number or a boolean']],
    [{ variables: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`v${i}`, i])) }, ['invalid_request', 'At most 100 variables may be sent']],
  ])('%#: refuses %j', (body, expected) => {
    expect(check(FlowBody, body)).toEqual(expected);
  });

  it('takes none as {} and keeps a "__proto__" name as a plain key', () => {
    expect(check(FlowBody, { variables: null })).toEqual({ variables: {} });
    const out = check(FlowVariables, JSON.parse('{"__proto__": "x", "n": 2}')) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__', 'n']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('takes names in any script, with inner spaces, up to 100 characters (counted as characters, not UTF-16 units)', () => {
    const names = { 'Bestellnummer': 1, 'رقم الطلب': 2, 'order id': 3, ['😀'.repeat(100)]: 4 };
    expect(check(FlowVariables, names)).toEqual(names);
  });
});

describe('PATCH /api/user variables', () => {
  const body = UserVariablesBody(['email', 'plan']);
  it.each([
    [{}, ['invalid_request', 'Send at least one variable']],
    [{ role: 'admin' }, ['variable_not_allowed', 'Variable "role" may not be set from the browser']],
    [JSON.parse('{"__proto__": "x"}'), ['variable_not_allowed', 'Variable "__proto__" may not be set from the browser']],
    [{ constructor: 'x' }, ['variable_not_allowed', 'Variable "constructor" may not be set from the browser']],
    [{ email: { $ne: 1 } }, ['invalid_request', 'Variable "email" must be a string (up to 1000 characters, without control characters or direction overrides), a number or a boolean']],
    [{ plan: Infinity }, ['invalid_request', 'Variable "plan" must be a string (up to 1000 characters, without control characters or direction overrides), a number or a boolean']],
    // The first name in order decides, as the hand-written loop did.
    [{ email: 'x'.repeat(1001), role: 'admin' }, ['invalid_request', 'Variable "email" must be a string (up to 1000 characters, without control characters or direction overrides), a number or a boolean']],
  ])('%#: refuses %j', (input, expected) => {
    expect(check(body, input)).toEqual(expected);
  });

  it('passes allowed names with plain values', () => {
    expect(check(body, { email: 'ada@example.com', plan: 2 })).toEqual({ email: 'ada@example.com', plan: 2 });
  });
});

describe('multipart text parts', () => {
  it.each([
    [UploadFields, { note: 'x' }, ['invalid_request', 'Unknown form field "note"']],
    [UploadFields, { text: ' \r\n ' }, ['text_invalid', '"text" must not be empty']],
    [UploadFields, { clientId: 'a b' }, ['invalid_request', '"clientId" must be 1 to 64 letters, digits, _ or -']],
    [FlowFields, { text: 'hi' }, ['invalid_request', 'Unknown form field "text"']],
    [FlowFields, { variables: '{nope' }, ['invalid_json', '"variables" must be a JSON object']],
    [FlowFields, { variables: '{"a": {"b": 1}}' }, ['invalid_request', 'Variable "a" must be a string (up to 10000 characters, without control characters or direction overrides), a number or a boolean']],
  ] as const)('%#: refuses %j', (schema, parts, expected) => {
    expect(check(schema, parts)).toEqual(expected);
  });

  it('gives the route the parts it takes', () => {
    expect(check(UploadFields, { text: 'a\r\nb', clientId: 'c-1' })).toEqual({ text: 'a\nb', clientId: 'c-1' });
    expect(check(UploadFields, {})).toEqual({ text: undefined, clientId: undefined });
    expect(check(FlowFields, { variables: '{"n": 2}' })).toEqual({ variables: { n: 2 } });
    // A left-out part is left out (the route starts from no variables).
    expect(check(FlowFields, {})).toStrictEqual({});
  });
});
