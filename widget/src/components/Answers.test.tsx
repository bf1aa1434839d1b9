import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { FakeEventSource, flush, freshBrowserEachTest, MODEL_CONFIG, mountApp, seedSession } from '../../test/support.js';

// Thumbs on answers, a stopped answer, quick replies of an ended conversation.
const emit = (event: string, data: unknown, id: number) => act(() => FakeEventSource.last.emit(event, data, id));
const open = () => fireEvent.click(screen.getByRole('button', { name: /^Open chat/ }));

freshBrowserEachTest(cleanup);

describe('thumbs', () => {
  it('only under the last answer of a bot turn', async () => {
    seedSession();
    await mountApp();
    open();
    emit('message', { id: 'u1', role: 'user', text: 'Which boots?' }, 2);
    emit('message', { id: 'lead', role: 'bot', text: 'Let me look.' }, 3);
    emit('message', { id: 'ans', role: 'bot', text: 'The Ridge boots.' }, 4);
    const groups = screen.getAllByRole('group', { name: 'Rate this answer' });
    expect(groups).toHaveLength(1);
    expect(groups[0]!.closest('.msg')!.textContent).toContain('The Ridge boots.');
  });

  /** An answer voted down: its comment box open, with focus. */
  async function commenting() {
    seedSession();
    const { api } = await mountApp({ 'POST /api/feedback': { status: 202, body: {} } });
    open();
    emit('message', { id: 'a1', role: 'bot', text: 'An answer' }, 2);
    fireEvent.click(screen.getByRole('button', { name: 'Not helpful' }));
    const box = screen.getByRole('textbox', { name: 'What was missing?' }) as HTMLTextAreaElement;
    await waitFor(() => expect(document.activeElement).toBe(box));
    return { api, box };
  }

  it('a thumbs down opens a comment box with focus; Shift+Enter breaks the line, Enter sends, a short thanks follows', async () => {
    const { api, box } = await commenting();
    expect(box.getAttribute('rows')).toBe('3');
    // Typed text takes its own direction (Latin in an Arabic panel), an empty box the panel's.
    expect(box.getAttribute('dir') || '').toBe('');
    fireEvent.input(box, { target: { value: 'Too short' } });
    expect(box.getAttribute('dir')).toBe('auto');
    fireEvent.input(box, { target: { value: '' } });
    expect(box.getAttribute('dir') || '').toBe('');
    // The thanks' status region is there, empty, before the thanks: a region made already filled is not read out.
    const thanks = screen.getByRole('status');
    expect(thanks.textContent).toBe('');
    const shifted = fireEvent.keyDown(box, { key: 'Enter', shiftKey: true });
    expect(shifted).toBe(true); // not prevented: the browser breaks the line
    fireEvent.input(box, { target: { value: 'The size\nchart' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await waitFor(() => expect(api.to('POST', '/api/feedback').at(-1)!.body).toEqual({ messageId: 'a1', value: 'down', comment: 'The size\nchart' }));
    expect(screen.queryByRole('textbox', { name: 'What was missing?' })).toBeNull();
    expect(screen.getByRole('status')).toBe(thanks);
    expect(thanks.textContent).toBe('Thanks, that helps us improve.');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Not helpful' }));
  });

  it('Escape in the comment box closes the box, not the chat, and keeps the thumbs down', async () => {
    const { api, box } = await commenting();
    fireEvent.keyDown(box, { key: 'Escape' });
    await act(flush);
    expect(screen.queryByRole('textbox', { name: 'What was missing?' })).toBeNull();
    expect(screen.getByRole('dialog')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Not helpful' }));
    expect(screen.getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed')).toBe('true');
    expect(api.to('POST', '/api/feedback').map((c) => c.body)).toEqual([{ messageId: 'a1', value: 'down' }]);
  });
});

describe('a stopped answer', () => {
  it('Stop goes as soon as it is pressed, and the answer says it was stopped', async () => {
    seedSession();
    await mountApp({ 'POST /api/stop': { status: 202, body: {} } }, {}, MODEL_CONFIG);
    open();
    emit('message_delta', { id: 'b_1', delta: 'Once upon' }, 2);
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    emit('message', { id: 'b_1', role: 'bot', text: 'Once upon', stopped: true }, 3);
    expect(screen.getByText('Once upon').closest('.msg')!.textContent).toContain('Stopped');
  });

  it('Stop goes when the stream reports an error instead of the answer’s end', async () => {
    seedSession();
    await mountApp({}, {}, MODEL_CONFIG);
    open();
    emit('message_delta', { id: 'b_2', delta: 'Half' }, 2);
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    emit('error', { code: 'upstream_unavailable', message: 'x' }, 3);
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
  });
});

describe('a streaming answer in Markdown', () => {
  it('shows no raw marks: bold waits for its closer, an open code fence is a code block at once', async () => {
    seedSession();
    await mountApp({}, {}, MODEL_CONFIG);
    open();
    const bubble = () => [...screen.getByRole('log').querySelectorAll('.msg.bot .bubble')].at(-1)!;
    emit('message_delta', { id: 'b_3', delta: 'Free over **€7' }, 2);
    expect(bubble().textContent).toBe('Free over');
    emit('message_delta', { id: 'b_3', delta: '5**.\n\n```sh\nnpm i' }, 3);
    expect(bubble().querySelector('strong')!.textContent).toBe('€75');
    expect(bubble().querySelector('pre code')!.textContent).toBe('npm i');
    expect(bubble().textContent).not.toMatch(/\*|`/);
  });
});

describe('quick replies of an ended conversation', () => {
  it('are disabled; "Start a new conversation" is the way on', async () => {
    seedSession();
    const { api } = await mountApp();
    open();
    const badge = { type: 'quick_replies', text: 'Pick one', replies: [{ label: 'Returns', action: 'postback', value: 'How do returns work?' }] };
    emit('message', { id: 'q', role: 'bot', badge }, 2);
    emit('archived', {}, 3);
    const reply = screen.getByRole('button', { name: 'Returns' }) as HTMLButtonElement;
    expect(reply.disabled).toBe(true);
    fireEvent.click(reply);
    expect(api.to('POST', '/api/session')).toHaveLength(0);
    expect(within(document.querySelector('.end') as HTMLElement).getByRole('button', { name: 'Start a new conversation' })).toBeTruthy();
  });
});

describe('buttons and quick replies once a person has the conversation', () => {
  it('work: a tap sends the label the visitor chose to the person (never a value meant for a bot); back with the bot, the value again', async () => {
    seedSession();
    const { api } = await mountApp({ 'POST /api/messages': { status: 202, body: {} } });
    open();
    const badge = { type: 'buttons', text: 'What next?', buttons: [{ label: 'Order status', action: 'postback', value: 'ORDER_STATUS' }] };
    emit('message', { id: 'b', role: 'bot', badge }, 2);
    emit('state', { state: 'escalated' }, 3);
    const button = screen.getByRole('button', { name: 'Order status' }) as HTMLButtonElement;
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    await waitFor(() => expect(api.to('POST', '/api/messages').map((c) => c.body.text)).toEqual(['Order status']));
    emit('state', { state: 'active' }, 4);
    fireEvent.click(button);
    await waitFor(() => expect(api.to('POST', '/api/messages').map((c) => c.body.text)).toEqual(['Order status', 'ORDER_STATUS']));
  });

  it("an operator's quick replies work while escalated and send the label", async () => {
    seedSession();
    const { api } = await mountApp({ 'POST /api/messages': { status: 202, body: {} } });
    open();
    emit('state', { state: 'escalated' }, 2);
    const badge = { type: 'quick_replies', text: 'Which size?', replies: [{ label: 'Size 42', action: 'postback', value: 'SIZE_42' }] };
    emit('message', { id: 'o1', role: 'operator', author: { kind: 'operator', name: 'Mara' }, badge }, 3);
    const reply = screen.getByRole('button', { name: 'Size 42' }) as HTMLButtonElement;
    expect(reply.disabled).toBe(false);
    fireEvent.click(reply);
    await waitFor(() => expect(api.to('POST', '/api/messages').map((c) => c.body.text)).toEqual(['Size 42']));
  });
});
