import type { Signal } from '@preact/signals';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { pickStrings } from '../i18n.js';
import de from '../locales/de.js';
import fr from '../locales/fr.js';
import { FakeEventSource, flush, freshBrowserEachTest, mountApp, PUBLIC_CONFIG, seedSession, sessionBody } from '../../test/support.js';

// The pre-chat form (docs/api.md "People"): PRECHAT_FIELDS / init({prechat}) before an anonymous visitor's first message.
const config = (required: boolean, more: object = {}) => ({ ...PUBLIC_CONFIG, prechat: { fields: ['name', 'email'], required }, starters: ['Where is my order?'], ...more });
const routes = { 'POST /api/session': { status: 201, body: sessionBody(1) }, 'POST /api/contact': { status: 202, body: {} } };
const form = () => screen.queryByRole('form', { name: 'Before we start, tell us how to reach you.' });
const box = (name: string) => screen.getByRole('textbox', { name }) as HTMLInputElement;
const type = (name: string, value: string) => fireEvent.input(box(name), { target: { value } });
const start = async () => {
  fireEvent.click(screen.getByRole('button', { name: 'Start chatting' }));
  await act(flush);
};
const composer = () => screen.queryByRole('textbox', { name: 'Message' });
/** The BFF's settings arriving after the panel opened (in a browser the launcher opens it before they come). */
const settingsArrive = (ctx: { store: { state: { config: object } } }, cfg: object) =>
  act(() => {
    (ctx.store.state.config as Signal<object>).value = cfg;
  });

freshBrowserEachTest();
afterEach(cleanup);

async function opened(cfg: object, options: object = {}) {
  const m = await mountApp(routes, options, cfg);
  // A reload within a test finds the panel open already (kept per tab).
  if (!document.querySelector('.panel')) fireEvent.click(document.querySelector('button.launcher')!);
  return m;
}

async function write(text: string) {
  fireEvent.input(composer()!, { target: { value: text } });
  fireEvent.keyDown(composer()!, { key: 'Enter' });
  await act(flush);
}

describe('the pre-chat form', () => {
  it('stands before the first message when required: checks each box, then the name and address go with the conversation', async () => {
    const { api } = await opened(config(true));
    expect(form()).toBeTruthy();
    // Neither the composer nor a starter gets past it.
    expect(composer()).toBeNull();
    expect(screen.queryByRole('group', { name: 'Suggested questions' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Skip' })).toBeNull();
    // Said before the first try, since nothing else tells the visitor the boxes cannot stay blank.
    expect(form()!.textContent).toContain('All fields are required.');

    await start();
    expect(screen.getByRole('alert').textContent).toBe('Please enter your name.');
    expect(document.activeElement).toBe(box('Your name'));
    type('Your name', ' Ada ');
    type('Email address', 'ada@');
    await start();
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address.');
    expect(box('Email address').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(box('Email address'));
    // What type=email takes but the BFF would refuse (no dot in the domain) is refused here, announced again.
    const first = screen.getByRole('alert');
    type('Email address', 'ada@example');
    await start();
    expect(screen.getByRole('alert').textContent).toBe('Please enter a valid email address.');
    expect(screen.getByRole('alert')).not.toBe(first);
    expect(box('Email address').getAttribute('aria-invalid')).toBe('true');
    expect([box('Your name'), box('Email address')].map((b) => b.getAttribute('aria-required'))).toEqual(['true', 'true']);
    type('Email address', 'ada@example.com');
    await start();

    expect(form()).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(composer()));
    expect(screen.getByRole('group', { name: 'Suggested questions' })).toBeTruthy();
    expect(api.to('POST', '/api/session')).toEqual([]);
    await write('Where are my boots?');
    await waitFor(() => expect(api.to('POST', '/api/contact')).toHaveLength(1));
    expect(api.to('POST', '/api/session')[0]!.body).toMatchObject({ text: 'Where are my boots?', profileName: 'Ada' });
    expect(api.to('POST', '/api/contact').map((c) => [c.body, c.auth])).toEqual([[{ email: 'ada@example.com', name: 'Ada' }, 'Bearer tok1']]);
    // The stream's contact event: the team is there, so no "we'll reply by email" thanks.
    act(() => FakeEventSource.last.emit('contact', { email: 'ada@example.com', name: 'Ada' }, 1));
    expect(screen.queryByText(/We'll reply to/)).toBeNull();
  });

  it('takes focus from the text box it replaces when its settings come after the panel opened', async () => {
    const { ctx } = await opened(PUBLIC_CONFIG);
    composer()!.focus();
    expect(document.activeElement).toBe(composer());
    settingsArrive(ctx, config(true));
    await act(flush);
    expect(form()).toBeTruthy();
    expect(document.activeElement).toBe(box('Your name'));
  });

  it('leaves a reader elsewhere on the page where they were when it replaces the text box', async () => {
    const elsewhere = document.body.appendChild(document.createElement('input'));
    try {
      const { ctx } = await opened(PUBLIC_CONFIG);
      elsewhere.focus();
      settingsArrive(ctx, config(true));
      await act(flush);
      expect(form()).toBeTruthy();
      expect(document.activeElement).toBe(elsewhere);
    } finally {
      elsewhere.remove();
    }
  });

  it('asks for the consent the site configured before taking an address', async () => {
    const { api } = await opened(config(false, { consentText: 'You may email me about this request.' }));
    // The site's own words, in the site's language: their direction is their own in an Arabic widget too.
    expect(screen.getByText('You may email me about this request.').getAttribute('dir')).toBe('auto');
    type('Email address', 'ada@example.com');
    await start();
    expect(screen.getByRole('alert').textContent).toBe('Please tick the box to agree first.');
    const consent = screen.getByRole('checkbox', { name: 'You may email me about this request.' });
    expect(consent.getAttribute('aria-describedby')).toBe(screen.getByRole('alert').id);
    // A wrong address is said under its own box, above the consent box, and the box points to it.
    type('Email address', 'ada@');
    await start();
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Please enter a valid email address.');
    expect(box('Email address').getAttribute('aria-invalid')).toBe('true');
    expect(box('Email address').getAttribute('aria-describedby')).toBe(alert.id);
    expect(box('Email address').closest('label')!.nextElementSibling).toBe(alert);
    expect(alert.compareDocumentPosition(consent.closest('label')!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    type('Email address', 'ada@example.com');
    fireEvent.click(consent);
    // Ticked: the warning about it goes.
    expect(screen.queryByRole('alert')).toBeNull();
    await start();
    await write('Hello');
    await waitFor(() => expect(api.to('POST', '/api/contact')).toHaveLength(1));
    // The consent goes with the visitor's language: the BFF records the consent text they read.
    expect(api.to('POST', '/api/contact')[0]!.body).toEqual({ email: 'ada@example.com', consent: true, locale: navigator.language });
  });

  it('can be skipped when not required; nothing is sent then, and a reload does not ask again', async () => {
    const { api } = await opened(config(false));
    expect(form()!.textContent).not.toContain('All fields are required.');
    fireEvent.click(screen.getByRole('button', { name: 'Skip' }));
    await act(flush);
    expect(form()).toBeNull();
    cleanup();
    await opened(config(false));
    expect(form()).toBeNull();
    await write('Hello');
    expect(api.to('POST', '/api/contact')).toEqual([]);
  });

  it("follows the page's init({prechat}) over the BFF's, and false asks nothing", async () => {
    await opened(PUBLIC_CONFIG, { options: { prechat: { fields: ['email'] } } });
    expect(form()).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Your name' })).toBeNull();
    cleanup();
    await opened(config(true), { options: { prechat: false } });
    expect(form()).toBeNull();
    expect(composer()).toBeTruthy();
  });

  it('never asks a signed-in visitor, nor one who already has a conversation', async () => {
    seedSession({ user: { id: 'u-ada', name: 'Ada' } });
    await opened(config(true));
    expect(form()).toBeNull();
    cleanup();
    localStorage.clear();
    seedSession();
    await opened(config(true));
    expect(form()).toBeNull();
  });

  it.each([
    [de, 'Bevor es losgeht: Wie erreichen wir Sie?', 'Chat beginnen'],
    [fr, 'Avant de commencer, comment pouvons-nous vous joindre ?', 'Commencer la discussion'],
  ])('speaks German and French', async (table, ask, button) => {
    await opened(config(true), { strings: pickStrings(table) });
    expect(screen.getByRole('form', { name: ask })).toBeTruthy();
    expect(screen.getByRole('button', { name: button })).toBeTruthy();
  });

  it('takes overrides through strings', async () => {
    await opened(config(true), { strings: pickStrings(undefined, { prechatAsk: 'Who are you?' }) });
    expect(screen.getByRole('form', { name: 'Who are you?' })).toBeTruthy();
  });
});
