import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { OperatorMessageBody, SendBody, simBody } from './bodies.js';
import { SimError } from './errors.js';

/** The status, code and message a body gets, or its checked value. */
function check(schema: v.GenericSchema, body: unknown): unknown {
  try {
    return simBody(schema, body);
  } catch (err) {
    if (!(err instanceof SimError)) throw err;
    return [err.status, err.code, err.message];
  }
}

describe('simulator request bodies', () => {
  it.each([
    [SendBody, {}, [400, 'invalid_request', '"message" must be a non-empty string']],
    [SendBody, { message: 'x'.repeat(10_001) }, [400, 'invalid_request', '"message" must be at most 10000 characters']],
    [SendBody, { message: 'hi', webhookUrl: 'ftp://x' }, [400, 'invalid_request', '"webhookUrl" must be an http(s) URL']],
    [SendBody, { message: 'hi', isTestChat: 'yes' }, [400, 'invalid_request', '"isTestChat" must be true or false']],
    [SendBody, { message: 'hi', session: 7 }, [400, 'invalid_request', '"session" must be a string']],
    [OperatorMessageBody, { badge: 'poster' }, [400, 'invalid_badge', '"badge" must be one of: buttons, quick_replies, card, carousel, list, image, file']],
    [OperatorMessageBody, { text: 'hi', badge: 'card' }, [400, 'invalid_request', 'Send either "text" or "badge", not both']],
    [OperatorMessageBody, { text: '  ' }, [400, 'invalid_request', '"text" must be a non-empty string']],
  ] as const)('%#: refuses %j', (schema, body, expected) => {
    expect(check(schema, body)).toEqual(expected);
  });

  it('gives the route typed values', () => {
    expect(check(SendBody, { message: 'hi', isTestChat: true, profileName: null })).toEqual({
      message: 'hi',
      webhookUrl: undefined,
      profileName: undefined,
      isTestChat: true,
      webhookOnly: undefined,
      session: undefined,
    });
    expect(check(OperatorMessageBody, { badge: 'card', name: 'ana' })).toEqual({ name: 'ana', text: undefined, badge: 'card' });
  });
});
