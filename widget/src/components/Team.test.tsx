import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { formatOpening } from '../hours.js';
import { FakeEventSource, flush, freshBrowserEachTest, mountApp, PUBLIC_CONFIG, sessionBody } from '../../test/support.js';

const KEY = 'parley:https://bff.test';
const OPEN = { offer: 'always', open: true, replyTime: 'hour', launcher: 'show' };
const AWAY = { offer: 'always', open: false, opensAt: '2026-11-30T08:00:00.000Z', replyTime: 'minutes', launcher: 'show' };
const config = (handoff: object, more: object = {}) => ({ ...PUBLIC_CONFIG, handoff, ...more });
const wrote = { 'GET /api/messages': { body: { items: [{ id: 'u1', role: 'user', text: 'Is my parcel lost?' }], hasMore: false } } };

/** An open widget with a conversation in which the visitor has written. */
async function visitorWrote(handoff: object, routes: Parameters<typeof mountApp>[0] = {}, more: object = {}, session: object = {}) {
  localStorage.setItem(KEY, JSON.stringify({ ...sessionBody(1), ...session }));
  const mounted = await mountApp({ ...wrote, ...routes }, {}, config(handoff, more));
  fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
  await act(flush);
  return mounted;
}
const emailBox = () => screen.queryByRole('textbox', { name: 'Leave your email and we will get back to you:' }) as HTMLInputElement | null;

freshBrowserEachTest(cleanup);

describe('when the team is back', () => {
  const zone = process.env.TZ;
  afterEach(() => void (process.env.TZ = zone));

  it("is said in the visitor's own time zone and language, with the date when it is more than six days ahead", () => {
    const now = new Date('2026-11-25T12:00:00Z');
    process.env.TZ = 'Europe/Berlin';
    expect(formatOpening('2026-11-30T08:00:00Z', 'en-GB', now)).toBe('Monday 09:00');
    expect(formatOpening('2026-11-30T08:00:00Z', 'de-DE', now)).toBe('Montag, 09:00');
    expect(formatOpening('2026-11-30T08:00:00Z', 'fr-FR', now)).toBe('lundi 09:00');
    expect(formatOpening('2026-12-07T08:00:00Z', 'en-GB', now)).toBe('Monday 7 December at 9:00');
    process.env.TZ = 'America/New_York';
    expect(formatOpening('2026-11-30T08:00:00Z', 'en-US', now)).toBe('Monday 3:00 AM');
  });

  it("gives the time alone later today, by the calendar of the visitor's time zone (today's weekday would read as next week's)", () => {
    const now = new Date('2026-11-25T22:30:00Z'); // Wednesday 23:30 in Berlin, 17:30 in New York
    process.env.TZ = 'Europe/Berlin';
    expect(formatOpening('2026-11-25T22:40:00Z', 'en-GB', now)).toBe('23:40');
    expect(formatOpening('2026-11-26T08:00:00Z', 'en-GB', now)).toBe('Thursday 09:00');
    process.env.TZ = 'America/New_York';
    expect(formatOpening('2026-11-25T22:40:00Z', 'en-US', now)).toBe('5:40 PM');
    expect(formatOpening('2026-11-26T08:00:00Z', 'en-US', now)).toBe('Thursday 3:00 AM');
  });
});

describe('the team line and the email form', () => {
  it('says how soon the team replies while it is there, and asks for no address', async () => {
    await visitorWrote(OPEN);
    expect(screen.getByText('The team usually replies within an hour.')).toBeTruthy();
    expect(emailBox()).toBeNull();
  });

  it('gives way once a person has written: no reply time and no "a person will take it" above what they wrote', async () => {
    await visitorWrote(OPEN);
    act(() => FakeEventSource.last.emit('state', { state: 'escalated' }, 1));
    expect(screen.getByText('A person from our team will take it from here.')).toBeTruthy();
    expect(screen.getByText('The team usually replies within an hour.')).toBeTruthy();
    act(() => FakeEventSource.last.emit('message', { id: 'o1', role: 'operator', text: 'Hi, Mara here.', author: { kind: 'operator', name: 'Mara' } }, 2));
    expect(screen.getByText('Mara joined the conversation')).toBeTruthy();
    expect(screen.queryByText('A person from our team will take it from here.')).toBeNull();
    expect(screen.queryByText('The team usually replies within an hour.')).toBeNull();
    // Ended by the operator: no promise of a reply comes back above "This conversation has ended".
    act(() => FakeEventSource.last.emit('archived', {}, 3));
    expect(screen.queryByText('The team usually replies within an hour.')).toBeNull();
  });

  it('while away: says when it is back, tells an escalated visitor, and takes a valid address', async () => {
    const { api } = await visitorWrote(AWAY, { 'POST /api/contact': { status: 202, body: {} } });
    expect(screen.getByText(/^We're away right now\. Back .+\.$/)).toBeTruthy();
    act(() => FakeEventSource.last.emit('state', { state: 'escalated' }, 1));
    // One line, not two saying the same: the banner names when, and the team line gives way to it.
    expect(screen.getByText(/^Our team is away until .+\. They'll answer here then\.$/)).toBeTruthy();
    expect(screen.queryByText(/^We're away right now/)).toBeNull();

    fireEvent.input(emailBox()!, { target: { value: 'not an address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    await act(flush);
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address.');
    expect(emailBox()!.getAttribute('aria-invalid')).toBe('true');
    expect(api.to('POST', '/api/contact')).toEqual([]);

    // No dot in the domain: type=email takes it, the BFF would not; a repeated problem is said again.
    const first = screen.getByRole('alert');
    fireEvent.input(emailBox()!, { target: { value: 'ada@example' } });
    expect(screen.queryByRole('alert')).toBeNull(); // the box changed: what was said no longer holds
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    await act(flush);
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address.');
    expect(screen.getByRole('alert')).not.toBe(first);
    expect(api.to('POST', '/api/contact')).toEqual([]);

    fireEvent.input(emailBox()!, { target: { value: ' ada@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    await act(flush);
    expect(api.to('POST', '/api/contact').map((c) => [c.body, c.auth])).toEqual([[{ email: 'ada@example.com' }, 'Bearer tok1']]);
    expect(emailBox()).toBeNull();
    expect(document.activeElement?.textContent).toBe("Thanks! We'll reply to ada@example.com.");
    expect(JSON.parse(localStorage.getItem(KEY)!).contact).toBe('ada@example.com');
  });

  it('an address the BFF refuses (contact_invalid) is said to be wrong, not to be tried again', async () => {
    await visitorWrote(AWAY, { 'POST /api/contact': { status: 400, body: { error: { code: 'contact_invalid', message: '"email" must be an email address' } } } });
    fireEvent.input(emailBox()!, { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    await act(flush);
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address.');
    expect(emailBox()!.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(emailBox());
  });

  it('asks for the consent the site configured, and sends it along', async () => {
    const { api } = await visitorWrote(AWAY, { 'POST /api/contact': { status: 202, body: {} } }, { consentText: 'You may email me about this request.' });
    fireEvent.input(emailBox()!, { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    await act(flush);
    expect(screen.getByRole('alert').textContent).toBe('Please tick the box to agree first.');
    const consent = screen.getByRole('checkbox', { name: 'You may email me about this request.' });
    // The warning stands on the consent box, not on the address.
    expect(consent.getAttribute('aria-invalid')).toBe('true');
    expect(consent.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    expect(emailBox()!.hasAttribute('aria-invalid')).toBe(false);
    fireEvent.input(emailBox()!, { target: { value: 'ada@' } });
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    await act(flush);
    // A wrong address is said under its own box, above the consent box, and the box points to it.
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Please enter a valid email address.');
    expect(emailBox()!.getAttribute('aria-describedby')).toBe(alert.id);
    expect(alert.compareDocumentPosition(consent.closest('label')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(emailBox()!.closest('.contact-row')!.nextElementSibling).toBe(alert);
    fireEvent.input(emailBox()!, { target: { value: 'ada@example.com' } });
    fireEvent.click(consent);
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    await act(flush);
    // The consent goes with the visitor's language: the BFF records the consent text they read.
    expect(api.to('POST', '/api/contact').map((c) => c.body)).toEqual([{ email: 'ada@example.com', consent: true, locale: navigator.language }]);
  });

  it("shows another tab's address (the stream's contact event) instead of asking again", async () => {
    await visitorWrote(AWAY);
    act(() => FakeEventSource.last.emit('contact', { email: 'ada@example.com' }, 2));
    expect(screen.getByRole('status').textContent).toBe("Thanks! We'll reply to ada@example.com.");
    expect(emailBox()).toBeNull();
  });

  it('never asks a signed-in visitor: the site knows them', async () => {
    await visitorWrote(AWAY, {}, {}, { user: { id: 'u-ada', name: 'Ada' } });
    expect(screen.getByText(/^We're away right now/)).toBeTruthy();
    expect(emailBox()).toBeNull();
  });
});

describe('"Talk to a person" before the first message while the team is away', () => {
  const PREFS = 'parley:https://bff.test:p';
  /** An open widget with no conversation, its visitor having asked for a person. */
  async function askedFirst(routes: Parameters<typeof mountApp>[0] = {}, more: object = {}) {
    const mounted = await mountApp({ 'POST /api/session': { status: 201, body: { ...sessionBody(1), state: 'escalated' } }, ...routes }, {}, config(AWAY, more));
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    fireEvent.click(screen.getByRole('button', { name: 'Talk to a person' }));
    await act(flush);
    return mounted;
  }
  const write = (text: string) => {
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.input(box, { target: { value: text } });
    fireEvent.keyDown(box, { key: 'Enter' });
  };

  it('offers the email form at once, says when the team is back, and promises no answer now', async () => {
    await askedFirst();
    expect(emailBox()).toBeTruthy();
    const when = formatOpening(AWAY.opensAt, 'en-GB');
    expect(screen.getByRole('status').textContent).toBe(`Write your question. Our team is away until ${when} and will answer here then.`);
    expect(screen.queryByText(/take it from here|a person from our team will answer it/i)).toBeNull();
  });

  it('keeps the address and its consent until the first message starts the conversation, then sends them with the language', async () => {
    const { api } = await askedFirst({ 'POST /api/contact': { status: 202, body: {} } }, { consentText: 'You may email me about this request.' });
    fireEvent.input(emailBox()!, { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'You may email me about this request.' }));
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    await act(flush);
    // No conversation yet: nothing to send it to. It is kept in this tab and shown as given.
    expect(api.to('POST', '/api/contact')).toEqual([]);
    expect(emailBox()).toBeNull();
    expect(document.activeElement?.textContent).toBe("Thanks! We'll reply to ada@example.com.");
    expect(JSON.parse(sessionStorage.getItem(PREFS)!)).toEqual({ email: 'ada@example.com', consent: true });

    write('My tent pole broke');
    await waitFor(() => expect(api.to('POST', '/api/contact')).toHaveLength(1));
    expect(api.to('POST', '/api/session')[0]!.body).toMatchObject({ text: 'My tent pole broke', escalate: true });
    expect(api.to('POST', '/api/contact').map((c) => [c.body, c.auth])).toEqual([[{ email: 'ada@example.com', consent: true, locale: navigator.language }, 'Bearer tok1']]);
    await act(flush);
    expect(screen.getByText("Thanks! We'll reply to ada@example.com.")).toBeTruthy();
    expect(emailBox()).toBeNull();
    expect(JSON.parse(localStorage.getItem(KEY)!).contact).toBe('ada@example.com');
  });

  it('keeps the address over a reload of the page before the first message', async () => {
    await askedFirst();
    fireEvent.input(emailBox()!, { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    await act(flush);
    cleanup();
    const { api } = await mountApp({ 'POST /api/session': { status: 201, body: sessionBody(1) }, 'POST /api/escalate': { status: 202, body: {} }, 'POST /api/contact': { status: 202, body: {} } }, {}, config(AWAY));
    // The panel stays open over the reload, the address shown as given.
    expect(screen.getByText("Thanks! We'll reply to ada@example.com.")).toBeTruthy();
    write('Is my parcel lost?');
    await waitFor(() => expect(api.to('POST', '/api/contact')).toHaveLength(1));
    expect(api.to('POST', '/api/contact')[0]!.body).toEqual({ email: 'ada@example.com' });
  });

  it('asks again when the BFF refuses the kept address once the conversation exists', async () => {
    const { api } = await askedFirst({ 'POST /api/contact': { status: 400, body: { error: { code: 'contact_invalid', message: '"email" must be an email address' } } } });
    fireEvent.input(emailBox()!, { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Notify me' }));
    await act(flush);
    write('Hello?');
    await waitFor(() => expect(api.to('POST', '/api/contact')).toHaveLength(1));
    await act(flush);
    expect(screen.queryByText("Thanks! We'll reply to ada@example.com.")).toBeNull();
    expect(emailBox()).toBeTruthy();
    expect(JSON.parse(sessionStorage.getItem(PREFS)!).email).toBeUndefined();
  });
});

