import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/preact';
import { afterEach, describe, expect, it } from 'vitest';
import { flush, freshBrowserEachTest, mountApp, PUBLIC_CONFIG, seedSession, sessionBody } from '../../test/support.js';

// When "Talk to a person" is offered (ESCALATION_OFFER, docs/api.md "People").
const handoff = (offer: string, open = true) => ({ offer, open, replyTime: 'minutes', launcher: 'show', ...(!open && { opensAt: '2026-11-30T08:00:00.000Z' }) });
const config = (offer: string, open = true) => ({ ...PUBLIC_CONFIG, handoff: handoff(offer, open) });
const human = () => screen.queryByRole('button', { name: 'Talk to a person' });
const textbox = () => screen.getByRole('textbox', { name: 'Message' });

freshBrowserEachTest();
afterEach(cleanup);

async function mounted(offer: string, open = true, session: object = sessionBody(1)) {
  const m = await mountApp({ 'POST /api/session': { status: 201, body: session }, 'POST /api/escalate': { status: 202, body: {} } }, {}, config(offer, open));
  fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
  return m;
}

describe('ESCALATION_OFFER=always', () => {
  it('offers a person before the first message; that message starts the conversation with a person (escalate: true)', async () => {
    const { api } = await mounted('always', true, { ...sessionBody(1), state: 'escalated' });
    fireEvent.click(human()!);
    await act(flush);
    // Nothing to hand over yet: the visitor is told to write, and nothing is sent.
    expect(api.to('POST', '/api/escalate')).toEqual([]);
    expect(screen.getByText('Write your question and a person from our team will answer it.').getAttribute('role')).toBe('status');
    expect(human()).toBeNull();
    expect(document.activeElement).toBe(textbox());

    fireEvent.input(textbox(), { target: { value: 'My boots leak' } });
    fireEvent.keyDown(textbox(), { key: 'Enter' });
    await waitFor(() => expect(api.to('POST', '/api/session')).toHaveLength(1));
    expect(api.to('POST', '/api/session')[0]!.body).toMatchObject({ text: 'My boots leak', escalate: true });
    await act(flush);
    // One request: the agent is never asked to answer it first.
    expect(api.to('POST', '/api/escalate')).toEqual([]);
    expect(screen.getByText('A person from our team will take it from here.')).toBeTruthy();
    expect(screen.queryByText('Write your question and a person from our team will answer it.')).toBeNull();
    expect(human()).toBeNull();
  });

  it('a BFF that did not take the request with the start (an older one, a refusal) is asked with POST /api/escalate', async () => {
    const { api } = await mounted('always');
    fireEvent.click(human()!);
    await act(flush);
    fireEvent.input(textbox(), { target: { value: 'My boots leak' } });
    fireEvent.keyDown(textbox(), { key: 'Enter' });
    await waitFor(() => expect(api.to('POST', '/api/escalate')).toHaveLength(1));
    expect(api.to('POST', '/api/escalate')[0]!.auth).toBe('Bearer tok1');
    expect(screen.getByText('A person from our team will take it from here.')).toBeTruthy();
  });

  it('says the team answers when back while it is away', async () => {
    await mounted('always', false);
    fireEvent.click(human()!);
    await act(flush);
    // Until when, on one line: the team line ("We're away right now. Back …") gives way to it.
    expect(screen.getByText(/^Write your question\. Our team is away until .+ and will answer here then\.$/)).toBeTruthy();
    expect(screen.queryByText(/^We're away right now/)).toBeNull();
  });

  it('is the default when the BFF names no offer', async () => {
    await mountApp({}, {}, PUBLIC_CONFIG);
    fireEvent.click(screen.getByRole('button', { name: 'Open chat' }));
    expect(human()).toBeTruthy();
  });
});

describe('other offers', () => {
  it('after_first_message: no offer in an empty conversation', async () => {
    await mounted('after_first_message');
    expect(human()).toBeNull();
  });

  it('after_first_message: an offer once there is a conversation', async () => {
    seedSession();
    await mounted('after_first_message');
    expect(human()).toBeTruthy();
  });

  it('never: no offer, even in a conversation', async () => {
    seedSession();
    await mounted('never');
    expect(human()).toBeNull();
  });
});
