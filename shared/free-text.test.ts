import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { checkBody } from '../bff/src/lib/body.js';
import { ValidationError } from '../bff/src/errors.js';
import { ContactBody, CsatBody, FeedbackBody, FlowBody, SessionBody, UserVariablesBody } from './bodies.js';
import { hasUnsafeFileNameChars } from './file-name.js';
import { isSafeLine, isSafeText } from './free-text.js';

/** The code a body gets, or `ok` when it passes. */
function codeOf(schema: v.GenericSchema, body: unknown): string {
  try {
    checkBody(schema, body);
    return 'ok';
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err;
    return err.code;
  }
}

// What a review sent as a contact name: a header line break, a NUL, and an override that shows "exe.png".
const HOSTILE = 'Eve\r\nX-Injected: 1\u0000\u202egnp.exe';
const UNSAFE = ['\u0000', '\u0007', '\u001b[31m', '\u007f', '\u0085', '\u202a', '\u202b', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];

describe('the free-text rule', () => {
  it.each(UNSAFE)('refuses %j in a line and in text', (c) => {
    expect([isSafeLine(`a${c}b`), isSafeText(`a${c}b`)]).toEqual([false, false]);
  });

  it('keeps line breaks and tabs in text, not in a line; takes any script and marks that only set direction', () => {
    expect([isSafeText('one\ntwo\r\n\tthree'), isSafeLine('one\ntwo'), isSafeLine('a\tb')]).toEqual([true, false, false]);
    for (const fine of ['Zoë Åström', 'محمد', 'שלום עולם', '李小龍', '😀', 'a\u200fb', 'a\u200eb']) expect([isSafeLine(fine), isSafeText(fine)]).toEqual([true, true]);
  });

  it('is the rule of every free text that goes upstream or to other tabs, with each field’s own code', () => {
    const variables = UserVariablesBody(['plan']);
    const cases: Array<[v.GenericSchema, unknown, string]> = [
      [ContactBody, { email: 'eve@example.com', name: HOSTILE }, 'contact_invalid'],
      [SessionBody, { text: 'hi', profileName: HOSTILE }, 'invalid_request'],
      [SessionBody, { text: 'hi', context: 'Need help?\u202e' }, 'invalid_request'],
      [CsatBody, { score: 5, comment: 'great\u0000' }, 'csat_invalid'],
      [FeedbackBody, { messageId: 'm1', value: 'up', comment: 'see \u2067this\u2069' }, 'feedback_invalid'],
      [variables, { plan: 'gold\u001b[2J' }, 'invalid_request'],
      [FlowBody, { variables: { order: '42\u202e' } }, 'invalid_request'],
    ];
    for (const [schema, body, code] of cases) expect(codeOf(schema, body)).toBe(code);
    // The same fields take what people write, line breaks where text has lines.
    expect(codeOf(ContactBody, { email: 'eve@example.com', name: 'Ève Müller-Şahin' })).toBe('ok');
    expect(codeOf(CsatBody, { score: 5, comment: 'Quick.\r\nThanks!' })).toBe('ok');
    expect(codeOf(variables, { plan: 'line one\nline two' })).toBe('ok');
    expect(codeOf(FlowBody, { variables: { address: 'Street 1\n12345 Town' } })).toBe('ok');
  });

  it('is part of the file name rule', () => {
    for (const c of UNSAFE) expect(hasUnsafeFileNameChars(`a${c}.pdf`)).toBe(true);
  });
});
