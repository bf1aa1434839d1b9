import { describe, expect, it } from 'vitest';
import { signWebhook, WebhookVerifier } from './webhook-verify.js';

const SECRET = 'whsec_test_0123456789';
const BODY = Buffer.from('{"event":"message.added","eventId":"evt_1","sessionId":42,"data":{"messageId":7,"message":"Hi","hbo":"bot"}}');
const NOW_S = 1_763_800_000; // fixed clock
const now = () => NOW_S * 1000;

describe('WebhookVerifier', () => {
  const verifier = new WebhookVerifier({ secrets: [SECRET], now });

  it('matches a fixed known-answer vector (computed with openssl dgst -sha256 -hmac)', () => {
    const vector = '958541c8f8ec6f1a07497ac8504ed2f5f7b3aabf4c94ca9def9ac6e0c798e063';
    expect(signWebhook(SECRET, String(NOW_S), BODY)).toBe(vector);
    expect(verifier.verify(BODY, vector, String(NOW_S))).toEqual({ ok: true });
  });

  it('accepts a valid signature with a seconds timestamp', () => {
    const sig = signWebhook(SECRET, String(NOW_S), BODY);
    expect(verifier.verify(BODY, sig, String(NOW_S))).toEqual({ ok: true });
  });

  it('accepts a millisecond timestamp, an uppercase digest and a sha256= prefix', () => {
    const ts = String(NOW_S * 1000 + 123);
    const sig = signWebhook(SECRET, ts, BODY);
    expect(verifier.verify(BODY, sig.toUpperCase(), ts)).toEqual({ ok: true });
    expect(verifier.verify(BODY, `sha256=${sig}`, ts)).toEqual({ ok: true });
  });

  it('accepts any of several secrets during rotation', () => {
    const rotating = new WebhookVerifier({ secrets: ['old-secret', SECRET], now });
    expect(rotating.verify(BODY, signWebhook(SECRET, String(NOW_S), BODY), String(NOW_S))).toEqual({ ok: true });
    expect(rotating.verify(BODY, signWebhook('old-secret', String(NOW_S), BODY), String(NOW_S))).toEqual({ ok: true });
    expect(rotating.verify(BODY, signWebhook('other', String(NOW_S), BODY), String(NOW_S))).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it.each([
    ['4 min 59 s in the past', NOW_S - 299, true],
    ['4 min 59 s in the future', NOW_S + 299, true],
    ['5 min 1 s in the past', NOW_S - 301, false],
    ['5 min 1 s in the future', NOW_S + 301, false],
  ])('timestamp %s', (_label, ts, ok) => {
    const result = verifier.verify(BODY, signWebhook(SECRET, String(ts), BODY), String(ts));
    expect(result).toEqual(ok ? { ok: true } : { ok: false, reason: 'stale_timestamp' });
  });

  it.each([
    ['missing', undefined, 'missing_signature'],
    ['empty', '', 'missing_signature'],
    ['too short', 'abc123', 'malformed_signature'],
    ['63 hex digits', 'a'.repeat(63), 'malformed_signature'],
    ['65 hex digits', 'a'.repeat(65), 'malformed_signature'],
    ['not hex', 'z'.repeat(64), 'malformed_signature'],
    ['base64', Buffer.alloc(32, 1).toString('base64'), 'malformed_signature'],
    ['two signatures', `${'a'.repeat(64)},${'b'.repeat(64)}`, 'malformed_signature'],
    ['right length, wrong digest', 'a'.repeat(64), 'bad_signature'],
  ])('signature header %s is refused', (_label, header, reason) => {
    expect(verifier.verify(BODY, header, String(NOW_S))).toEqual({ ok: false, reason });
  });

  it.each([
    ['missing', undefined, 'missing_timestamp'],
    ['not a number', 'yesterday', 'malformed_timestamp'],
    ['negative', '-1763800000', 'malformed_timestamp'],
    ['decimal', '1763800000.5', 'malformed_timestamp'],
    ['ISO date', '2026-11-22T10:00:00Z', 'malformed_timestamp'],
    ['11 digits (neither s nor ms)', '17638000000', 'malformed_timestamp'],
    ['far future digits', '99999999999999', 'malformed_timestamp'],
  ])('timestamp header %s is refused', (_label, header, reason) => {
    const sig = signWebhook(SECRET, String(header ?? ''), BODY);
    expect(verifier.verify(BODY, sig, header)).toEqual({ ok: false, reason });
  });

  it('refuses a body changed by one byte, and JSON re-serialised differently', () => {
    const sig = signWebhook(SECRET, String(NOW_S), BODY);
    const changed = Buffer.from(BODY);
    changed[changed.length - 3] = changed[changed.length - 3]! ^ 1;
    expect(verifier.verify(changed, sig, String(NOW_S))).toEqual({ ok: false, reason: 'bad_signature' });
    const reformatted = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 2));
    expect(verifier.verify(reformatted, sig, String(NOW_S))).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a signature made over another timestamp (replayed body)', () => {
    const sig = signWebhook(SECRET, String(NOW_S - 10), BODY);
    expect(verifier.verify(BODY, sig, String(NOW_S))).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('needs at least one secret', () => {
    expect(() => new WebhookVerifier({ secrets: [] })).toThrow();
  });
});
