import { act, cleanup, fireEvent, screen } from '@testing-library/preact';
import { describe, expect, it } from 'vitest';
import { asksForRating } from '../csat.js';
import { FakeEventSource, flush, freshBrowserEachTest, mountApp, PUBLIC_CONFIG, sessionBody } from '../../test/support.js';

const KEY = 'parley:https://bff.test';
const config = (csat: string) => ({ ...PUBLIC_CONFIG, csat });
const history = (items: object[]) => ({ 'GET /api/messages': { body: { items, hasMore: false } } });

/** An open widget whose conversation has just ended. */
async function ended(routes: Parameters<typeof mountApp>[0] = {}, csat = 'always') {
  localStorage.setItem(KEY, JSON.stringify(sessionBody(1)));
  const mounted = await mountApp({ ...history([{ id: '1', role: 'bot', text: 'Anything else?' }]), ...routes }, {}, config(csat));
  fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
  act(() => FakeEventSource.last.emit('archived', {}, 1));
  return mounted;
}

const question = () => screen.queryByRole('group', { name: 'How did we do?' });

freshBrowserEachTest(cleanup);

describe('the CSAT question at the end of a conversation', () => {
  it('asks with five named radio buttons and a comment, sends once, and moves focus to the thanks', async () => {
    const { api } = await ended({ 'POST /api/csat': { status: 202, body: {} } });
    expect(question()).toBeTruthy();
    const radios = screen.getAllByRole('radio') as HTMLInputElement[];
    expect(radios.map((r) => r.labels?.[0]?.textContent)).toEqual(['1Very poor', '2Poor', '3Okay', '4Good', '5Excellent']);
    expect(screen.getByRole('button', { name: 'Send rating' }).getAttribute('aria-disabled')).toBe('true');
    // One main action at a time: rating, then a new conversation.
    const restart = () => screen.getByRole('button', { name: 'Start a new conversation' }).className;
    expect(restart()).toBe('pill');
    // Pressed without a score: nothing is sent, and the scale takes focus (its question is read out).
    fireEvent.click(screen.getByRole('button', { name: 'Send rating' }));
    expect(document.activeElement).toBe(radios[0]);
    expect(radios[0]!.checked).toBe(false);

    fireEvent.click(radios[3]!);
    const comment = screen.getByRole('textbox', { name: 'Anything you would like to add? (optional)' });
    expect(comment.hasAttribute('dir'), 'empty: the panel\'s direction').toBe(false);
    fireEvent.input(comment, { target: { value: '  Quick and kind  ' } });
    expect(comment.getAttribute('dir'), 'typed: its own direction, as in an Arabic panel').toBe('auto');
    fireEvent.click(screen.getByRole('button', { name: 'Send rating' }));
    await act(flush);
    expect(api.to('POST', '/api/csat').map((c) => [c.body, c.auth])).toEqual([[{ score: 4, comment: 'Quick and kind' }, 'Bearer tok1']]);
    expect(question()).toBeNull();
    expect(document.activeElement?.textContent).toBe('Thank you for your rating!');
    expect(restart()).toBe('primary');
    // A reload of this conversation does not ask again.
    expect(JSON.parse(localStorage.getItem(KEY)!).rated).toBe(4);
  });

  it("shows the thanks when another tab rated (the stream's csat event), without sending anything", async () => {
    const { api } = await ended();
    act(() => FakeEventSource.last.emit('csat', { score: 5 }, 2));
    expect(screen.getByRole('status').textContent).toBe('Thank you for your rating!');
    expect(question()).toBeNull();
    expect(api.to('POST', '/api/csat')).toEqual([]);
  });

  it('takes 409 already_rated as rated, drops the question on 409 not_rateable, and keeps it to retry after a failure', async () => {
    let answer = { status: 500, body: { error: { code: 'internal_error', message: 'x' } } };
    await ended({ 'POST /api/csat': () => answer });
    fireEvent.click(screen.getAllByRole('radio')[0]!);
    fireEvent.click(screen.getByRole('button', { name: 'Send rating' }));
    await act(flush);
    expect(screen.getByRole('alert').textContent).toBe('Your rating was not sent. Please try again.');
    answer = { status: 409, body: { error: { code: 'already_rated', message: 'x' } } };
    fireEvent.click(screen.getByRole('button', { name: 'Send rating' }));
    await act(flush);
    expect(screen.getByRole('status').textContent).toBe('Thank you for your rating!');
  });

  it('asks nothing after a reload of a rated conversation', async () => {
    localStorage.setItem(KEY, JSON.stringify({ ...sessionBody(1), state: 'archived', rated: 3 }));
    await mountApp(history([{ id: '1', role: 'bot', text: 'Bye' }]), {}, config('always'));
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    await act(flush);
    expect(screen.getByText('This conversation has ended.')).toBeTruthy();
    expect(question()).toBeNull();
  });

  it('asks nothing of a conversation the service no longer knows; the refused message waits for a new one', async () => {
    localStorage.setItem(KEY, JSON.stringify(sessionBody(1)));
    const gone = { status: 410, body: { error: { code: 'conversation_gone', message: 'This conversation is no longer available' } } };
    const { api } = await mountApp({ ...history([{ id: '1', role: 'bot', text: 'Anything else?' }]), 'POST /api/messages': gone }, {}, config('always'));
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    const box = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.input(box, { target: { value: 'Are you still there?' } });
    fireEvent.keyDown(box, { key: 'Enter' });
    await act(flush);
    expect(api.to('POST', '/api/messages')).toHaveLength(1);
    // Not "ended" by anyone, so no rating, which could not be recorded anyway; the text is not lost.
    expect(screen.getByText('This conversation is no longer available. Your message was not sent: it is kept for a new conversation.')).toBeTruthy();
    expect(question()).toBeNull();
    expect(screen.queryByText('Are you still there?')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Start a new conversation' }));
    await act(flush);
    expect((screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement).value).toBe('Are you still there?');
    expect(screen.queryByText('This conversation is no longer available.', { exact: false })).toBeNull();
  });

  it('follows the policy: after_operator asks only where a person wrote; off and an older BFF never ask', () => {
    const bot = { id: '1', role: 'bot' as const, text: 'hi' };
    const person = { id: '2', role: 'operator' as const, text: 'Mara here' };
    expect(asksForRating('after_operator', [bot])).toBe(false);
    expect(asksForRating('after_operator', [bot, person])).toBe(true);
    expect(asksForRating('always', [bot])).toBe(true);
    expect(asksForRating('off', [bot, person])).toBe(false);
    expect(asksForRating(undefined, [bot, person])).toBe(false);
  });
});
