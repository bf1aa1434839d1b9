import { SignJWT } from 'jose';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { startMailServer, type TestMailServer } from '../helpers/mail-server.js';
import { openSse } from '../helpers/sse.js';
import { until } from '../helpers/wait.js';

// docs/api.md "Continuity by email", against a real SMTP server in this process and the simulator.
const IDENTITY_SECRET = 'identity-secret-for-tests-0123456789';
const identityToken = (sub: string, claims: Record<string, unknown>) =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setSubject(sub).setAudience('parley-identity').setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(IDENTITY_SECRET));

let mail: TestMailServer;
let bff: RunningServer;
const AFTER_SEC = 1;
const INTERVAL_SEC = 3;

beforeAll(async () => {
  mail = await startMailServer();
  bff = await startBff({
    SMTP_URL: mail.url,
    EMAIL_FROM: 'chat@shop.example',
    EMAIL_AFTER_SEC: String(AFTER_SEC),
    EMAIL_MIN_INTERVAL_SEC: String(INTERVAL_SEC),
    ALLOWED_ORIGINS: 'https://shop.example',
    IDENTITY_SECRET,
    // Room for the marker visitors (looksDone) besides the tests' own.
    RATE_LIMIT_SESSIONS_PER_MIN: '1000',
  });
});
afterAll(async () => {
  await bff?.stop();
  await mail?.stop();
});
afterEach(() => vi.useRealTimers());

let visitors = 0;
/** A visitor who started on a shop page and left an address in the contact form. */
async function visitor(options: { locale?: string; email?: string } = {}) {
  const email = options.email ?? `visitor${++visitors}.${process.pid}@example.com`;
  const pageUrl = `https://shop.example/boots?size=42#reviews`;
  const session = (await call(bff.url, 'POST', '/api/session', { body: { text: 'Are these waterproof?', pageUrl, locale: options.locale } })).body;
  expect((await call(bff.url, 'POST', '/api/contact', { token: session.token, body: { email } })).status).toBe(202);
  return { ...session, email } as { sessionId: string; token: string; email: string };
}

/** An operator answers in the console (the simulator sends the service's webhook). */
const taken = new Set<string>();
async function operatorSays(sessionId: string, text: string, name = 'mara'): Promise<void> {
  if (!taken.has(sessionId)) {
    expect((await call(bff.url, 'POST', `/sim/operator/conversations/${sessionId}/escalate`, { body: { name } })).status).toBe(200);
    taken.add(sessionId);
  }
  expect((await call(bff.url, 'POST', `/sim/operator/conversations/${sessionId}/messages`, { body: { name, text } })).status).toBe(201);
}

const mailsTo = (address: string) => mail.received.filter((m) => addressOf(m) === address);
const addressOf = (m: ParsedMail) => (Array.isArray(m.to) ? m.to[0] : m.to)?.value[0]?.address;
const continueLink = (m: ParsedMail) => /https:\/\/shop\.example\/[^\s"]*#parley-resume=([A-Za-z0-9._-]+)/.exec(m.text ?? '');
/** A header as it was sent (mailparser turns List-* headers into objects). */
const rawHeader = (m: ParsedMail, name: string) => m.headerLines.find((h) => h.key === name)?.line.replace(/^[^:]+:\s*/, '').replace(/\r?\n\s+/g, '');
const unsubscribeLink = (m: ParsedMail) => /^<([^>]+)>$/.exec(rawHeader(m, 'list-unsubscribe') ?? '')![1]!;
/**
 * Resolves once every look at the schedule that was due before now has run: an email asked for now
 * goes out after them (the schedule is taken in due order), so its arrival shows they are done.
 * Instead of waiting a while to see that nothing else goes out.
 */
let markers = 0;
async function looksDone(): Promise<void> {
  const m = await visitor({ email: `marker${++markers}.${process.pid}@example.com` });
  await operatorSays(m.sessionId, 'Marker');
  await until('the marker email', () => mailsTo(m.email).length === 1, 8000);
}
async function emailsOutcome(outcome: string): Promise<number> {
  const text = (await call(bff.url, 'GET', '/metrics')).body as string;
  return Number(new RegExp(`parley_emails_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
}

describe('emails to a visitor who left', () => {
  it('sends the unseen answers after EMAIL_AFTER_SEC: text and safe HTML in their language, with a continue and an unsubscribe link', async () => {
    const v = await visitor({ locale: 'de-AT' });
    const answered = Date.now();
    await operatorSays(v.sessionId, '**Ja**, sie sind wasserdicht. <img src=x onerror=alert(1)> [Details](https://shop.example/care) [bad](javascript:alert(1))');
    await until('the email', () => mailsTo(v.email).length === 1, 8000);
    expect(Date.now() - answered).toBeGreaterThanOrEqual(AFTER_SEC * 1000);
    const [m] = mailsTo(v.email) as [ParsedMail];

    expect(m.from?.value[0]).toEqual({ address: 'chat@shop.example', name: 'Nimbus Outdoor' });
    expect(m.subject).toBe('Nimbus Outdoor: eine neue Antwort in Ihrem Gespräch');
    expect(m.text).toContain('Mara Lindqvist:');
    expect(m.text).toContain('**Ja**, sie sind wasserdicht.');
    const html = String(m.html);
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(html).toContain('<strong>Ja</strong>');
    expect(html).toContain('<a href="https://shop.example/care">Details</a>');
    // Raw HTML from upstream is shown as text, never run; a javascript: link keeps only its label.
    expect(html).not.toMatch(/<img|javascript:/);
    expect(html).toContain('&#60;img src=x onerror=alert(1)&#62;');
    // The page without its old fragment, plus the resume fragment.
    expect(continueLink(m)?.[0]).toMatch(/^https:\/\/shop\.example\/boots\?size=42#parley-resume=/);
    expect(html).toContain(`href="https://shop.example/boots?size=42#parley-resume=${continueLink(m)![1]}"`);
    expect(unsubscribeLink(m)).toMatch(new RegExp(`^${bff.url}/api/email/unsubscribe\\?token=`));
    expect(rawHeader(m, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(m.text).toContain(unsubscribeLink(m));
    expect(await emailsOutcome('sent')).toBeGreaterThanOrEqual(1);
  });

  it('groups the answers that come within EMAIL_MIN_INTERVAL_SEC into the next email', async () => {
    const v = await visitor();
    await operatorSays(v.sessionId, 'First answer');
    await until('the first email', () => mailsTo(v.email).length === 1, 8000);
    const firstAt = Date.now();
    await operatorSays(v.sessionId, 'Second answer');
    await operatorSays(v.sessionId, 'Third answer', 'theo');
    await until('the second email', () => mailsTo(v.email).length === 2, 12_000);
    // Not before the interval since the first: the two answers waited for it together.
    expect(Date.now() - firstAt).toBeGreaterThanOrEqual((INTERVAL_SEC - 1) * 1000);
    const second = mailsTo(v.email)[1]!;
    expect(second.text).toContain('Second answer');
    expect(second.text).toContain('Theo Adeyemi:');
    expect(second.text).toContain('Third answer');
    expect(second.text).not.toContain('First answer');
    await looksDone();
    expect(mailsTo(v.email)).toHaveLength(2);
  });

  it('sends nothing to a visitor whose stream is open, or who came back before it went', async () => {
    const here = await visitor();
    const sse = await openSse(`${bff.url}/api/events?token=${here.token}`);
    const seenBefore = await emailsOutcome('seen');
    await operatorSays(here.sessionId, 'You are here');
    await sse.next((e) => e.event === 'message' && JSON.parse(e.data).text === 'You are here');
    await looksDone(); // the look at this conversation came while its stream was open
    sse.close();

    const back = await visitor();
    await operatorSays(back.sessionId, 'Welcome back');
    const again = await openSse(`${bff.url}/api/events?token=${back.token}`);
    await again.next((e) => e.event === 'message' && JSON.parse(e.data).text === 'Welcome back');
    again.close();
    await until('both looks counted as seen', async () => (await emailsOutcome('seen')) >= seenBefore + 1, 8000);
    await looksDone();
    expect(mailsTo(here.email)).toEqual([]);
    expect(mailsTo(back.email)).toEqual([]);
  });

  it('sends nothing to a visitor without an address', async () => {
    const before = mail.received.length;
    const s = (await call(bff.url, 'POST', '/api/session', { body: { text: 'Hi', pageUrl: 'https://shop.example/' } })).body;
    await operatorSays(s.sessionId, 'Nobody reads this by email');
    await looksDone();
    expect(mail.received.length).toBe(before + 1); // the marker's alone
  });

  it('retries a mail server that fails, with backoff', async () => {
    const v = await visitor();
    const retriedBefore = await emailsOutcome('retried');
    mail.failNext(1);
    await operatorSays(v.sessionId, 'Through a flaky server');
    await until('the email after a retry', () => mailsTo(v.email).length === 1, 12_000);
    expect(mail.refused).toBeGreaterThanOrEqual(1);
    expect(await emailsOutcome('retried')).toBe(retriedBefore + 1);
    expect(mailsTo(v.email)[0]!.text).toContain('Through a flaky server');
  });

  it('stops emailing an address that unsubscribed (one-click POST; the GET page only asks)', async () => {
    const v = await visitor({ locale: 'fr' });
    await operatorSays(v.sessionId, 'Premier');
    await until('the email', () => mailsTo(v.email).length === 1, 8000);
    const firstAt = Date.now();
    const link = unsubscribeLink(mailsTo(v.email)[0]!);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<html lang="fr" dir="ltr">');
    expect(html).toMatch(/<form method="post" action="\/api\/email\/unsubscribe\?token=[^"]+"><button type="submit">Se désabonner<\/button>/);
    const bad = await fetch(`${bff.url}/api/email/unsubscribe?token=nope`);
    expect(bad.status).toBe(401);

    // RFC 8058: the mail client posts `List-Unsubscribe=One-Click`, no page.
    const oneClick = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect([oneClick.status, await oneClick.json()]).toEqual([200, {}]);
    const refused = await call(bff.url, 'POST', '/api/email/unsubscribe?token=nope');
    expect([refused.status, refused.body.error.code]).toEqual([401, 'invalid_token']);

    const unsubscribedBefore = await emailsOutcome('unsubscribed');
    // Time is the subject: past EMAIL_MIN_INTERVAL_SEC since the first email, another would be sent at once.
    await until('the interval since the first email passed', () => Date.now() >= firstAt + INTERVAL_SEC * 1000, INTERVAL_SEC * 1000 + 1000);
    await operatorSays(v.sessionId, 'Deuxième');
    await until('the look that found the address unsubscribed', async () => (await emailsOutcome('unsubscribed')) > unsubscribedBefore, 8000);
    expect(mailsTo(v.email)).toHaveLength(1);
  });
});

describe('POST /api/resume', () => {
  it('opens the conversation once with a fresh token pair; a second use is 401 invalid_token', async () => {
    const v = await visitor();
    await operatorSays(v.sessionId, 'Come back');
    await until('the email', () => mailsTo(v.email).length === 1, 8000);
    const token = continueLink(mailsTo(v.email)[0]!)![1];
    const first = await call(bff.url, 'POST', '/api/resume', { body: { token } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ sessionId: v.sessionId, token: expect.any(String), refreshToken: expect.any(String), expiresAt: expect.any(String) });
    const history = await call(bff.url, 'GET', '/api/messages', { token: first.body.token });
    expect(history.body.items.map((m: { text?: string }) => m.text)).toContain('Come back');
    const second = await call(bff.url, 'POST', '/api/resume', { body: { token } });
    expect([second.status, second.body.error.code]).toEqual([401, 'invalid_token']);
    for (const bad of [{}, { token: 7 }, { token: 'not.a.token' }]) {
      const res = await call(bff.url, 'POST', '/api/resume', { body: bad });
      expect([res.status, res.body.error.code]).toEqual([401, 'invalid_token']);
    }
  });

  it('refuses a link past RESUME_LINK_TTL_SEC', async () => {
    const v = await visitor();
    await operatorSays(v.sessionId, 'Old news');
    await until('the email', () => mailsTo(v.email).length === 1, 8000);
    const token = continueLink(mailsTo(v.email)[0]!)![1];
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 604_800_000 + 1000 });
    const late = await call(bff.url, 'POST', '/api/resume', { body: { token } });
    expect([late.status, late.body.error.code, late.body.error.message]).toEqual([401, 'invalid_token', 'This link has expired; the conversation stays in your email']);
  });

  it('emails a signed-in user at the address of their identity token, and their link asks for a sign-in (403 sign_in_required)', async () => {
    const email = `grace.${process.pid}@example.com`;
    const s = (await call(bff.url, 'POST', '/api/session', { body: { text: 'Hi', pageUrl: 'https://shop.example/account', identityToken: await identityToken(`grace-${process.pid}`, { email }) } })).body;
    await operatorSays(s.sessionId, 'For your account');
    await until('the email', () => mailsTo(email).length === 1, 8000);
    const token = continueLink(mailsTo(email)[0]!)![1];
    const res = await call(bff.url, 'POST', '/api/resume', { body: { token } });
    expect([res.status, res.body.error.code]).toEqual([403, 'sign_in_required']);
  });
});

describe('pageUrl', () => {
  it('is taken only on an allowed origin (400 otherwise) and only as an http(s) URL', async () => {
    for (const pageUrl of ['https://evil.example/boots', 'javascript:alert(1)', 'ftp://shop.example/', 'https://user:pw@shop.example/', 42]) {
      const res = await call(bff.url, 'POST', '/api/session', { body: { text: 'Hi', pageUrl } });
      expect([pageUrl, res.status, res.body.error.code]).toEqual([pageUrl, 400, 'invalid_request']);
    }
    expect((await call(bff.url, 'POST', '/api/session', { body: { text: 'Hi', pageUrl: 'https://shop.example/a#b' } })).status).toBe(201);
  });
});
