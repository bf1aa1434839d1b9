import { describe, expect, it } from 'vitest';
import type { Message, StreamEvent } from '../../shared/types.js';
import { applyEvent, EMPTY, type Conversation } from './apply-event.js';

const empty: Conversation = { ...EMPTY, convo: 'active' };
const bot = (id: string, text = 'hi'): Message => ({ id, role: 'bot', text });
const user = (id: string, text = 'q', clientId?: string): Message => ({ id, role: 'user', text, ...(clientId && { clientId }) });
const run = (events: StreamEvent[], seen = false, from: Conversation = empty) =>
  events.reduce((state, e) => applyEvent(state, e, seen).next, from);

describe('applyEvent', () => {
  it('message: adds an answer, counts it unread while unseen, clears the notice and the dots, and reports it', () => {
    const out = applyEvent({ ...empty, typing: true, notice: 'budget_exhausted' }, { event: 'message', data: bot('1') }, false);
    expect(out.next).toMatchObject({ typing: false, notice: undefined, unread: ['1'] });
    expect(out.next.messages.map((m) => [m.id, m.src])).toEqual([['1', 's']]);
    expect(out.message).toEqual(bot('1'));
    expect(applyEvent(empty, { event: 'message', data: bot('1') }, true).next.unread).toEqual([]);
  });

  it('message: the same id twice changes nothing more and is reported once', () => {
    const once = applyEvent(empty, { event: 'message', data: bot('1') }, false);
    const twice = applyEvent(once.next, { event: 'message', data: bot('1') }, false);
    expect([twice.next.messages.length, twice.next.unread, twice.message]).toEqual([1, ['1'], undefined]);
  });

  it('message: a user message reconciles the optimistic copy and shows dots only while the agent is to answer', () => {
    const optimistic: Conversation = { ...empty, messages: [{ id: 'c1', clientId: 'c1', role: 'user', text: 'q', src: 'l', pending: 'sending' }] };
    const out = applyEvent(optimistic, { event: 'message', data: user('u1', 'q', 'c1') }, false);
    expect(out.next.messages).toEqual([{ id: 'u1', clientId: 'c1', role: 'user', text: 'q', src: 's', pending: undefined, progress: undefined, streaming: undefined }]);
    expect([out.next.typing, out.next.unread]).toEqual([true, []]);
    const escalated = applyEvent({ ...empty, convo: 'escalated' }, { event: 'message', data: user('u2') }, false);
    expect(escalated.next.typing).toBe(false);
  });

  it("message: a replayed user message already answered in the history shows no dots (a signed-in visitor's stream from the start)", () => {
    const history: Conversation = { ...empty, messages: [{ ...user('h7', 'markdown'), src: 'h' }, { ...bot('h8'), src: 'h' }] };
    const out = applyEvent(history, { event: 'message', data: user('u_1', 'markdown') }, false);
    expect(out.next.messages.map((m) => m.id)).toEqual(['u_1', 'h8']); // the history's copy, merged
    expect(out.next.typing).toBe(false);
  });

  it('message: a streamed reply is new, unread and reported once its closing message comes', () => {
    const streaming = run([{ event: 'message_delta', data: { id: 'b_1', delta: 'Hel' } }]);
    const out = applyEvent(streaming, { event: 'message', data: bot('b_1', 'Hello') }, false);
    expect([out.next.unread, out.message?.text]).toEqual([['b_1'], 'Hello']);
    expect(out.next.messages).toHaveLength(1);
  });

  it('message_delta: streams text into one message and stops the dots', () => {
    const next = run([
      { event: 'message_delta', data: { id: 'm1', delta: 'Hel' } },
      { event: 'message_delta', data: { id: 'm1', delta: 'lo' } },
    ], false, { ...empty, typing: true });
    expect(next.messages).toEqual([{ id: 'm1', role: 'bot', text: 'Hello', src: 's', streaming: true }]);
    expect(next.typing).toBe(false);
    const closed = run([{ event: 'message', data: bot('m1', 'Hello') }], false, next);
    expect(closed.messages[0]!.streaming).toBeUndefined();
  });

  it('state and archived: escalated, archived, and the dots end with the conversation', () => {
    expect(run([{ event: 'state', data: { state: 'escalated' } }]).convo).toBe('escalated');
    expect(run([{ event: 'state', data: { state: 'archived' } }], false, { ...empty, typing: true })).toMatchObject({ convo: 'archived', typing: false });
    expect(run([{ event: 'archived', data: {} }], false, { ...empty, typing: true })).toMatchObject({ convo: 'archived', typing: false });
    expect(run([{ event: 'state', data: { state: 'active' } }], false, { ...empty, convo: 'escalated' }).convo).toBe('active');
  });

  it('state: a person taking over ends an ask for one, and the bot\'s lines after it are the handoff, not answers', () => {
    const asked = { ...empty, escalating: true, messages: [{ ...bot('a1'), src: 's' as const }] };
    const next = run([{ event: 'state', data: { state: 'escalated' } }, { event: 'message', data: bot('n1', 'A person will reply here.') }], false, asked);
    expect([next.escalating, next.handoff]).toEqual([false, ['n1']]);
    // Before the handoff the bot answers: no handoff line.
    expect(run([{ event: 'message', data: bot('a2') }]).handoff).toBeUndefined();
  });

  it('reset asks for the newest history page and changes nothing', () => {
    const state = { ...empty, typing: true };
    const outcome = applyEvent(state, { event: 'reset', data: {} }, false);
    expect([outcome.reload, outcome.next]).toEqual([true, state]);
  });

  it('error: token_expired asks for a refresh and changes nothing; others set the notice and are reported', () => {
    const expired = applyEvent({ ...empty, typing: true }, { event: 'error', data: { code: 'token_expired', message: 'x' } }, false);
    expect([expired.expired, expired.next.typing, expired.error]).toEqual([true, true, undefined]);
    const budget = applyEvent({ ...empty, typing: true }, { event: 'error', data: { code: 'budget_exhausted', message: 'out' } }, false);
    expect([budget.next.notice, budget.next.typing, budget.error]).toEqual(['budget_exhausted', false, { code: 'budget_exhausted', message: 'out' }]);
    const store = applyEvent(empty, { event: 'error', data: { code: 'store_unavailable', message: 'x' } }, false);
    expect(store.next.notice).toBeUndefined();
  });

  it('feedback: the latest vote on a message wins', () => {
    const next = run([
      { event: 'feedback', data: { messageId: '1', value: 'up' } },
      { event: 'feedback', data: { messageId: '2', value: 'down' } },
      { event: 'feedback', data: { messageId: '1', value: 'down' } },
    ]);
    expect(next.votes).toEqual({ 1: 'down', 2: 'down' });
  });

  it('variables change nothing on screen', () => {
    const out = applyEvent(empty, { event: 'variables', data: { name: 'plan', value: 'pro' } }, false);
    expect(out.next).toBe(empty);
  });
  it('csat: keeps the rating of the ended conversation (any tab sent it), the comment only when there is one', () => {
    expect(run([{ event: 'csat', data: { score: 4 } }]).rating).toEqual({ score: 4 });
    expect(run([{ event: 'csat', data: { score: 2, comment: 'slow' } }]).rating).toEqual({ score: 2, comment: 'slow' });
  });
});
