import { describe, expect, it } from 'vitest';
import type { ChatMessage } from './messages.js';
import { votePlaces } from './votable.js';

const votableIds = (list: readonly ChatMessage[], convo: 'active' | 'escalated') => votePlaces(list, convo).values();

const bot = (id: string, extra: Partial<ChatMessage> = {}): ChatMessage => ({ id, role: 'bot', text: id, ...extra });
const user = (id: string): ChatMessage => ({ id, role: 'user', text: id });
const file = (id: string) => bot(id, { text: undefined, badge: { type: 'file', url: 'https://x.example/a.pdf', name: 'a.pdf' } });

describe('votableIds: the answers that get thumbs', () => {
  it('one per bot turn, its last answer: not the lead-ins, and never a file', () => {
    const list = [user('q1'), bot('lead'), bot('answer'), file('pdf'), user('q2'), bot('only')];
    expect([...votableIds(list, 'active')]).toEqual(['answer', 'only']);
  });

  it('shows the thumbs under the whole answer: after a file that follows the text, voting on the text', () => {
    const list = [user('q1'), bot('lead'), bot('answer'), file('pdf'), user('q2'), bot('only'), user('q3'), bot('guide'), file('guide.pdf')];
    expect([...votePlaces(list, 'active')]).toEqual([['pdf', 'answer'], ['only', 'only'], ['guide.pdf', 'guide']]);
  });

  it('none in a turn with an operator (the handoff notice), nor in the last turn while a person is awaited', () => {
    const list = [user('q1'), bot('a1'), user('q2'), bot('notice'), { id: 'op', role: 'operator', text: 'Hi' } as ChatMessage, user('q3'), bot('waiting')];
    expect([...votableIds(list, 'active')]).toEqual(['a1', 'waiting']);
    expect([...votableIds(list, 'escalated')]).toEqual(['a1']);
    // The visitor writes again while waiting: the notice's turn closes, and it still takes no vote.
    expect([...votableIds([user('q1'), bot('a1'), user('human'), bot('notice'), user('hello?')], 'escalated')]).toEqual(['a1']);
  });

  it('keeps the thumbs of the answer before a handoff asked with the button: the lines after it are the handoff', () => {
    // "Talk to a person" pressed after an answer: no visitor message between the answer and the notice.
    const list = [user('q1'), bot('answer'), bot('notice'), { id: 'op', role: 'operator', text: 'Hi' } as ChatMessage];
    // Handed over, the notice not here yet.
    expect([...votePlaces(list.slice(0, 2), 'escalated', [])]).toEqual([['answer', 'answer']]);
    expect([...votePlaces(list.slice(0, 3), 'escalated', ['notice'])]).toEqual([['answer', 'answer']]);
    expect([...votePlaces(list, 'escalated', ['notice'])]).toEqual([['answer', 'answer']]);
    expect([...votePlaces(list, 'archived', ['notice'])]).toEqual([['answer', 'answer']]);
  });
});
