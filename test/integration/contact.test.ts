import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { openSse } from '../helpers/sse.js';

// docs/api.md "People": POST /api/contact against the service simulator.
const IDENTITY_SECRET = 'identity-secret-for-tests-0123456789';
/** An identity token as the host site's backend mints it. */
const identityToken = (sub: string, claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setAudience('parley-identity').setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(IDENTITY_SECRET));

let bff: RunningServer;
beforeAll(async () => {
  bff = await startBff({ IDENTITY_SECRET, CONSENT_TEXT: 'You may email me about this question.', PRECHAT_FIELDS: 'name,email', PRECHAT_REQUIRED: 'true' });
});
afterAll(() => bff.stop());

describe('POST /api/contact', () => {
  it('validates, needs consent when CONSENT_TEXT is set, stores upstream and tells every tab', async () => {
    const session = (await call(bff.url, 'POST', '/api/session', { body: { text: 'Is anyone there?' } })).body;
    const sse = await openSse(`${bff.url}/api/events?token=${session.token}`);
    const leave = (body: unknown) => call(bff.url, 'POST', '/api/contact', { token: session.token, body });
    for (const bad of [{ email: 'not-an-address' }, { email: 'a@b.c', name: 7 }, {}]) {
      const res = await leave(bad);
      expect([res.status, res.body.error.code]).toEqual([400, 'contact_invalid']);
    }
    const noConsent = await leave({ email: 'ada@example.com' });
    expect([noConsent.status, noConsent.body.error.code]).toEqual([400, 'consent_required']);

    expect((await leave({ email: ' ada@example.com ', name: 'Ada', consent: true })).status).toBe(202);
    const contact = JSON.parse((await sse.next((e) => e.event === 'contact')).data);
    expect(contact).toEqual({ email: 'ada@example.com', name: 'Ada', consentAt: expect.stringMatching(/^\d{4}-/) });
    // The simulator echoes each stored variable: email and name reach the browser, the consent record does not.
    await sse.next((e) => e.event === 'variables' && JSON.parse(e.data).name === 'name');
    // The stream keeps a conversation's order: a message sent now comes after any echo of the contact.
    await call(bff.url, 'POST', '/api/messages', { token: session.token, body: { text: 'marker' } });
    await sse.next((e) => e.event === 'message' && JSON.parse(e.data).text === 'marker');
    const names = sse.events.filter((e) => e.event === 'variables').map((e) => JSON.parse(e.data).name);
    expect(names.sort()).toEqual(['email', 'name']);
    sse.close();
  });

  it('refuses a name with control or direction characters (400 contact_invalid): nothing reaches the service or other tabs', async () => {
    const session = (await call(bff.url, 'POST', '/api/session', { body: { text: 'Hello' } })).body;
    const res = await call(bff.url, 'POST', '/api/contact', { token: session.token, body: { email: 'eve@example.com', name: 'Eve\r\nX-Injected: 1\u0000\u202egnp.exe', consent: true } });
    expect([res.status, res.body.error.code]).toEqual([400, 'contact_invalid']);
    const upstream = (await call(bff.url, 'GET', `/sim/operator/conversations/${session.sessionId}`)).body;
    expect(upstream.variables).not.toHaveProperty('name');
    expect(upstream.variables).not.toHaveProperty('email');
    const history = (await call(bff.url, 'GET', '/api/messages', { token: session.token })).body;
    expect(JSON.stringify(history)).not.toContain('X-Injected');
  });

  it('refuses a signed-in user whose identity token carried an email (409 contact_known), also after a refresh; one without an email may leave one', async () => {
    const known = (await call(bff.url, 'POST', '/api/session', { body: { text: 'Hi', identityToken: await identityToken(`ada-${process.pid}`, { email: 'ada@example.com' }) } })).body;
    expect(known.user).toEqual({ id: `ada-${process.pid}` });
    const body = { email: 'other@example.com', consent: true };
    const refused = await call(bff.url, 'POST', '/api/contact', { token: known.token, body });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'contact_known']);
    const refreshed = (await call(bff.url, 'POST', '/api/token', { body: { refreshToken: known.refreshToken } })).body;
    expect((await call(bff.url, 'POST', '/api/contact', { token: refreshed.token, body })).status).toBe(409);

    const unknown = (await call(bff.url, 'POST', '/api/session', { body: { text: 'Hi', identityToken: await identityToken(`ben-${process.pid}`, {}) } })).body;
    expect((await call(bff.url, 'POST', '/api/contact', { token: unknown.token, body })).status).toBe(202);
  });

  it('records the consent text in the language the visitor read it (per-language CONSENT_TEXT)', async () => {
    const consent = { en: 'You may email me.', de: 'Sie dürfen mir schreiben.', ar: 'يمكنكم مراسلتي.' };
    const local = await startBff({ CONSENT_TEXT: JSON.stringify(consent) });
    try {
      expect((await call(local.url, 'GET', '/api/config')).body.consentText).toEqual(consent);
      const variablesAfter = async (body: Record<string, unknown>) => {
        const session = (await call(local.url, 'POST', '/api/session', { body: { text: 'Hallo' } })).body;
        expect((await call(local.url, 'POST', '/api/contact', { token: session.token, body: { email: 'ada@example.com', consent: true, ...body } })).status).toBe(202);
        return (await call(local.url, 'GET', `/sim/operator/conversations/${session.sessionId}`)).body.variables;
      };
      expect(await variablesAfter({ locale: 'de-AT' })).toMatchObject({ consent_text: 'Sie dürfen mir schreiben.', consent_at: expect.stringMatching(/^\d{4}-/) });
      expect((await variablesAfter({ locale: 'ar' })).consent_text).toBe('يمكنكم مراسلتي.');
      // A language not listed (or none) reads the English entry, as the widget shows it.
      expect((await variablesAfter({ locale: 'fr' })).consent_text).toBe('You may email me.');
      expect((await variablesAfter({})).consent_text).toBe('You may email me.');
      const session = (await call(local.url, 'POST', '/api/session', { body: { text: 'Hallo' } })).body;
      const bad = await call(local.url, 'POST', '/api/contact', { token: session.token, body: { email: 'ada@example.com', consent: true, locale: 'not a tag!' } });
      expect(bad.status).toBe(400);
    } finally {
      await local.stop();
    }
  });

  it('GET /api/config offers the consent text and the pre-chat form', async () => {
    const config = (await call(bff.url, 'GET', '/api/config')).body;
    expect(config.consentText).toBe('You may email me about this question.');
    expect(config.prechat).toEqual({ fields: ['name', 'email'], required: true });
  });
});
