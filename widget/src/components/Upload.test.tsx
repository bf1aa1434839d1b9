import { act, cleanup, fireEvent, screen, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pickStrings } from '../i18n.js';
import fr from '../locales/fr.js';
import ar from '../locales/ar.js';
import { FakeEventSource, FakeXHR, flush, freshBrowserEachTest, makeCtx, mockEventSource, mockFetch, mockXHR, mountApp, PUBLIC_CONFIG, seedSession, sessionBody, stored } from '../../test/support.js';

const MB = 1024 * 1024;
const UPLOADS = { ...PUBLIC_CONFIG, features: { ...PUBLIC_CONFIG.features, upload: true }, limits: { textMaxLength: 4000, maxUploadBytes: 10 * MB, maxUploadFiles: 5 } };

async function mount(routes: Parameters<typeof mockFetch>[0] = {}, options: Parameters<typeof makeCtx>[0] = {}, config: object = UPLOADS) {
  const { api, ctx, events } = await mountApp(routes, options, config);
  fireEvent.click(screen.getByRole('button', { name: /^(Open chat|Chat öffnen|Ouvrir le chat|فتح المحادثة)$/ }));
  return { api, ctx, events };
}

/** A file of `size` bytes without allocating them. */
function file(name: string, size = 5): File {
  const f = new File(['hello'], name, { type: 'text/plain' });
  Object.defineProperty(f, 'size', { value: size });
  return f;
}

const picker = () => document.querySelector('form.composer input[type=file]') as HTMLInputElement;
async function pick(...files: File[]) {
  fireEvent.change(picker(), { target: { files } });
  await act(flush);
}
/** Presses Send, which sends the composer's text with the chips' files. */
async function send() {
  fireEvent.submit(document.querySelector('form.composer')!);
  await act(flush);
}
const log = () => screen.getByRole('log');
const bar = (name: string) => screen.queryByRole('progressbar', { name: 'Uploading ' + name });
const chips = () => screen.queryAllByRole('listitem').filter((li) => li.closest('ul.chips'));
/** The visitor's messages: the words of their bubbles, and the names of the files attached under them. */
const sentFiles = () => {
  const mine = [...log().querySelectorAll('.msg.user')];
  return [
    mine.flatMap((m) => [...m.querySelectorAll('.bubble')].map((b) => b.textContent)),
    mine.flatMap((m) => [...m.querySelectorAll('ul.attachments li')].map((li) => li.textContent)),
  ];
};

freshBrowserEachTest(() => {
  cleanup();
  vi.restoreAllMocks();
});
beforeEach(() => mockXHR());

describe('attach button', () => {
  it('is there only when uploads are on, and opens the hidden multiple-file picker', async () => {
    await mount();
    const button = screen.getByRole('button', { name: 'Attach files' });
    expect(picker().multiple).toBe(true);
    expect(picker().hidden).toBe(true);
    const click = vi.spyOn(picker(), 'click').mockImplementation(() => {});
    fireEvent.click(button);
    expect(click).toHaveBeenCalledOnce();
  });

  it('is absent when uploads are off', async () => {
    await mount({}, {}, PUBLIC_CONFIG);
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Attach files' })).toBeNull();
    expect(picker()).toBeNull();
  });

  it('is translated', async () => {
    await mount({}, { strings: pickStrings(fr) });
    expect(screen.getByRole('button', { name: 'Joindre des fichiers' })).toBeTruthy();
  });
});

describe('limits, checked as files are chosen', () => {
  it('takes files up to the number allowed and names those it refused', async () => {
    const { api } = await mount();
    await pick(...['a', 'b', 'c', 'd', 'e', 'f'].map((n) => file(n + '.txt')));
    expect(screen.getByRole('alert').textContent).toBe('At most 5 files at a time. Not added: f.txt');
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    expect(chips().map((li) => li.querySelector('.name')!.textContent)).toEqual(['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt']);
    // Chips already count: one more is one too many.
    await pick(file('g.txt'));
    expect(screen.getByRole('alert').textContent).toBe('At most 5 files at a time. Not added: g.txt');
    expect(chips()).toHaveLength(5);
    expect(FakeXHR.all).toHaveLength(0);
    expect(api.to('POST', '/api/').filter((call) => call.path !== '/api/events/ticket')).toHaveLength(0); // the stream's ticket aside
    expect(log().querySelector('.msg.user')).toBeNull();
  });

  it("says it as one text beside its buttons, in the locale's digits and list (Arabic)", async () => {
    await mount({}, { strings: pickStrings(ar), locale: 'ar-EG', dir: 'rtl' });
    await pick(...['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => file(n + '.txt')));
    const alert = screen.getByRole('alert');
    // One flowing text (a span), then the dismiss button: not two squeezed columns.
    expect([...alert.children].map((el) => el.tagName)).toEqual(['SPAN', 'BUTTON']);
    expect(alert.textContent).toContain('٥');
    expect(alert.textContent).not.toMatch(/\d/);
    expect(alert.querySelector('bdi')!.textContent).toBe(`لم تُضف: ${new Intl.ListFormat('ar-EG', { type: 'unit' }).format(['f.txt', 'g.txt'])}`);
  });

  it('refuses a file over the size limit by name, naming the limit in megabytes, and takes the others', async () => {
    seedSession();
    const { api } = await mount();
    await pick(file('small.txt'), file('huge.mov', 10 * MB + 1));
    expect(screen.getByRole('alert').textContent).toBe('Files can be at most 10 MB each. Not added: huge.mov');
    expect(chips().map((li) => li.querySelector('.name')!.textContent)).toEqual(['small.txt']);
    expect(FakeXHR.all).toHaveLength(0);
    expect(api.to('POST', '/api/').filter((call) => call.path !== '/api/events/ticket')).toHaveLength(0); // the stream's ticket aside

    // Files within the limits clear the message; nothing goes before Send.
    await pick(file('exact.mov', 10 * MB));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(FakeXHR.all).toHaveLength(0);
    await send();
    expect(FakeXHR.last.fields.files).toEqual(['small.txt', 'exact.mov']);
  });

  it('refuses a file of a type the BFF does not take (UPLOAD_TYPES), by name, and offers only those types in the picker', async () => {
    seedSession();
    const typed = { ...UPLOADS, limits: { ...UPLOADS.limits, uploadTypes: ['application/pdf', 'text/plain', '.pdf', '.txt'] } };
    await mount({}, {}, typed);
    expect(picker().accept).toBe('application/pdf,text/plain,.pdf,.txt');
    const exe = new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' });
    const renamed = new File(['MZ'], 'invoice.pdf', { type: 'application/x-msdownload' });
    await pick(file('notes.txt'), exe);
    expect(screen.getByRole('alert').textContent).toBe('Not added: setup.exe (this type is not accepted)');
    await pick(renamed);
    expect(screen.getByRole('alert').textContent).toBe('Not added: invoice.pdf (this type is not accepted)');
    expect(chips().map((li) => li.querySelector('.name')!.textContent)).toEqual(['notes.txt']);
    expect(FakeXHR.all).toHaveLength(0);
  });

  it('drops a limit refusal once a later message is sent, and the reader can dismiss it', async () => {
    seedSession();
    await mount({ 'POST /api/messages': { status: 202, body: {} } });
    await pick(file('huge.mov', 11 * MB));
    expect(screen.getByRole('alert').textContent).toContain('Files can be at most 10 MB each.');
    fireEvent.input(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'never mind' } });
    await send();
    expect(screen.queryByRole('alert')).toBeNull();

    await pick(file('huge.mov', 11 * MB));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says it in the widget language', async () => {
    await mount({}, { strings: pickStrings(fr) });
    await pick(file('huge.mov', 11 * MB));
    expect(screen.getByRole('alert').textContent).toBe('Chaque fichier doit faire au maximum 10 Mo. Non ajoutés : huge.mov');
  });
});

describe('sending', () => {
  it('sends the composer text with the chips; each chip shows its own share of the upload, then the echo is reconciled', async () => {
    seedSession();
    await mount();
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    fireEvent.input(box, { target: { value: 'my receipt' } });
    await pick(file('a.pdf', 300), file('b.png', 100));
    // Chosen, not sent: the text stays in the box until Send.
    expect(FakeXHR.all).toHaveLength(0);
    expect(box.value).toBe('my receipt');
    await send();

    const x = FakeXHR.last;
    expect([x.method, x.url, x.headers.authorization]).toEqual(['POST', 'https://bff.test/api/upload', 'Bearer tok1']);
    const clientId = x.fields.clientId![0]!;
    expect(x.fields).toEqual({ files: ['a.pdf', 'b.png'], text: ['my receipt\n📎 a.pdf, b.png'], clientId: [clientId] });
    expect(box.value).toBe('');
    // The bubble has the words; the files are attachments under it (not a "📎 a.pdf, b.png" line).
    expect(sentFiles()).toEqual([['my receipt'], ['a.pdf', 'b.png']]);
    expect([bar('a.pdf'), bar('b.png')].map((b) => b!.getAttribute('aria-valuenow'))).toEqual(['0', '0']);
    // No removing what is on its way.
    expect(screen.queryByRole('button', { name: 'Remove a.pdf' })).toBeNull();

    // 400 bytes of files in a body of 800 (the rest is multipart framing): half the body is a.pdf's 200 of 300.
    act(() => x.progress(400, 800));
    expect([bar('a.pdf'), bar('b.png')].map((b) => b!.getAttribute('aria-valuenow'))).toEqual(['67', '0']);
    act(() => x.progress(700, 800));
    expect([bar('a.pdf'), bar('b.png')].map((b) => b!.getAttribute('aria-valuenow'))).toEqual(['100', '50']);

    act(() => x.respond(202, { jobId: 'j1' }));
    await act(flush);
    expect(chips()).toHaveLength(0);
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('status', { name: 'Typing…' })).toBeTruthy();
    act(() => FakeEventSource.last.emit('message', { id: 'u9', role: 'user', text: 'my receipt\n📎 a.pdf, b.png', clientId }, 1));
    act(() => FakeEventSource.last.emit('message', { id: 'b9', role: 'bot', text: 'Received 2 files: a.pdf, b.png.' }, 2));
    expect(log().querySelectorAll('.msg.user')).toHaveLength(1);
    expect(sentFiles()).toEqual([['my receipt'], ['a.pdf', 'b.png']]);
    expect(screen.getByText('Received 2 files: a.pdf, b.png.')).toBeTruthy();
  });

  it("shows a sent image's thumbnail in the visitor's bubble, a document icon and the name for other files, and names alone from history", async () => {
    const bitmap = { width: 10, height: 10, close: vi.fn() };
    vi.stubGlobal('createImageBitmap', vi.fn(async () => bitmap));
    seedSession();
    await mount();
    // After mounting: the widget reads the page's colour scheme through a canvas of its own.
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue({ drawImage: vi.fn() } as unknown as CanvasRenderingContext2D);
    await pick(new File(['png'], 'receipt.png', { type: 'image/png' }), file('invoice.pdf'));
    await send();
    await act(flush);
    const items = [...log().querySelectorAll('.msg.user ul.attachments li')];
    expect(within(log()).getByRole('list', { name: 'Attached files' })).toBeTruthy();
    expect(items.map((li) => [li.textContent, !!li.querySelector('canvas:not([hidden])'), !!li.querySelector('svg')])).toEqual([
      ['receipt.png', true, false],
      ['invoice.pdf', false, true],
    ]);
    expect(log().textContent).not.toContain('📎');
    // From history (another page load) only the names are known: icons and names.
    act(() => FakeEventSource.last.emit('message', { id: 'u7', role: 'user', text: 'older\n📎 scan.jpg' }, 5));
    const old = [...log().querySelectorAll('.msg.user')].at(-1)!;
    expect([old.querySelector('.bubble')!.textContent, old.querySelector('ul.attachments li')!.textContent, !!old.querySelector('ul.attachments svg')]).toEqual(['older', 'scan.jpg', true]);
  });

  it('Enter sends the chips without any text; Send is enabled by chips alone', async () => {
    seedSession();
    await mount();
    const sendButton = screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement;
    expect(sendButton.disabled).toBe(true);
    await pick(file('a.pdf'));
    expect(sendButton.disabled).toBe(false);
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Message' }), { key: 'Enter' });
    await act(flush);
    expect(FakeXHR.last.fields).toMatchObject({ files: ['a.pdf'], text: ['📎 a.pdf'] });
    // The only chip is on its way: nothing left to send.
    expect(sendButton.disabled).toBe(true);
  });

  it('sends a file whose name would mislead the operator under a plain one: no direction override, control character or path', async () => {
    seedSession();
    await mount();
    await pick(new File(['hello'], 'invoice\u202Egpj.exe', { type: 'image/png' }), new File(['hi'], 'a\u0007b.txt'));
    await send();
    expect(FakeXHR.last.fields).toMatchObject({ files: ['invoicegpj.exe', 'ab.txt'], text: ['📎 invoicegpj.exe, ab.txt'] });
  });

  it('starts the conversation with the file names first when there is none', async () => {
    const { api } = await mount({ 'POST /api/session': { status: 201, body: sessionBody(1) } });
    await pick(file('a.pdf'));
    await send();
    const [start] = api.to('POST', '/api/session');
    expect(start!.body.text).toBe('📎 a.pdf');
    // The text already arrived with the session: the upload carries the files only.
    expect(FakeXHR.last.fields).toEqual({ files: ['a.pdf'] });
    expect(FakeXHR.last.headers.authorization).toBe('Bearer tok1');
    act(() => FakeXHR.last.respond(202, { jobId: 'j1' }));
    await act(flush);
    expect(stored().sessionId).toBe('s1');
    expect(sentFiles()).toEqual([[], ['a.pdf']]);
  });

  it('refreshes an expired token once and sends again', async () => {
    seedSession();
    const { api } = await mount({ 'POST /api/token': { body: { token: 'tok2', refreshToken: 'ref2', expiresAt: new Date(Date.now() + 900_000).toISOString() } } });
    await pick(file('a.pdf'));
    await send();
    act(() => FakeXHR.last.respond(401, { error: { code: 'token_expired', message: 'expired' } }));
    await act(flush);
    expect(api.to('POST', '/api/token')).toHaveLength(1);
    expect(FakeXHR.all.map((x) => x.headers.authorization)).toEqual(['Bearer tok1', 'Bearer tok2']);
    act(() => FakeXHR.last.respond(202, { jobId: 'j1' }));
    await act(flush);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(sentFiles()).toEqual([[], ['a.pdf']]);
  });

  it('waits out a network failure and sends once the browser is back online', async () => {
    seedSession();
    await mount();
    await pick(file('a.pdf'));
    await send();
    act(() => FakeXHR.last.fail());
    await act(flush);
    expect(screen.getByText('Waiting for connection…')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => void window.dispatchEvent(new Event('online')));
    await act(flush);
    expect(FakeXHR.all).toHaveLength(2);
    expect(FakeXHR.last.fields.files).toEqual(['a.pdf']);
  });
});

describe('refusals keep the files as chips for Retry, and the text in the box', () => {
  it.each([
    [413, 'payload_too_large', 'These files are too large to send.'],
    [403, 'feature_disabled', "Files can't be sent here."],
    [503, 'upstream_unavailable', 'Your files were not sent.'],
  ])('%i %s: says so on the chips, the text comes back, and Retry sends both again', async (status, code, text) => {
    seedSession();
    const { events } = await mount();
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;
    fireEvent.input(box, { target: { value: 'my receipt' } });
    await pick(file('a.pdf'), file('b.pdf'));
    await send();
    act(() => FakeXHR.last.respond(status, { error: { code, message: 'no' } }));
    await act(flush);
    expect(screen.getByRole('alert').textContent).toBe(text + 'Retry');
    expect(sentFiles()).toEqual([[], []]);
    // Nothing typed is lost; each refused file says so and can still be removed.
    expect(box.value).toBe('my receipt');
    expect(chips().map((li) => li.textContent)).toEqual(['a.pdf5 bytesNot sent', 'b.pdf5 bytesNot sent']);
    expect(screen.getByRole('button', { name: 'Remove b.pdf' })).toBeTruthy();
    expect(events).toContainEqual(['error', { code, message: 'no' }]);
    // Refused files are not the end of the conversation.
    expect(stored().sessionId).toBe('s1');

    fireEvent.click(screen.getByRole('button', { name: 'Remove b.pdf' }));
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await act(flush);
    expect(screen.queryByRole('alert')).toBeNull();
    expect(FakeXHR.all).toHaveLength(2);
    expect(FakeXHR.last.fields.files).toEqual(['a.pdf']);
    expect(FakeXHR.last.fields.text).toEqual(['my receipt\n📎 a.pdf']);
    expect(box.value).toBe('');
    act(() => FakeXHR.last.respond(202, { jobId: 'j2' }));
    await act(flush);
    expect(sentFiles()).toEqual([['my receipt'], ['a.pdf']]);
    expect(chips()).toHaveLength(0);
  });

  it('does not send the text twice when only the files failed', async () => {
    const { api } = await mount({ 'POST /api/session': { status: 201, body: sessionBody(1) } });
    await pick(file('a.pdf'));
    await send();
    act(() => FakeXHR.last.respond(500, { error: { code: 'internal_error', message: 'boom' } }));
    await act(flush);
    // The conversation started with the names: that message stays, and its text is not put back.
    expect(sentFiles()).toEqual([[], ['a.pdf']]);
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('');
    expect(chips().map((li) => li.textContent)).toEqual(['a.pdf5 bytesNot sent']);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await act(flush);
    expect(FakeXHR.last.fields).toEqual({ files: ['a.pdf'] });
    expect(bar('a.pdf')).toBeTruthy();
    act(() => FakeXHR.last.respond(202, { jobId: 'j2' }));
    await act(flush);
    expect(chips()).toHaveLength(0);
    expect(api.to('POST', '/api/session')).toHaveLength(1);
    expect(log().querySelectorAll('.msg.user')).toHaveLength(1);
  });

  it('does not send the text twice when the BFF passed it on before the files failed', async () => {
    seedSession();
    await mount();
    await pick(file('a.pdf'));
    await send();
    const clientId = FakeXHR.last.fields.clientId![0];
    act(() => FakeEventSource.last.emit('message', { id: 'u1', role: 'user', text: '📎 a.pdf', clientId }, 1));
    act(() => FakeXHR.last.respond(502, { error: { code: 'upstream_unavailable', message: 'flow down' } }));
    await act(flush);
    expect(sentFiles()).toEqual([[], ['a.pdf']]);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await act(flush);
    expect(FakeXHR.last.fields).toEqual({ files: ['a.pdf'] });
    expect(log().querySelectorAll('.msg.user')).toHaveLength(1);
  });
});
