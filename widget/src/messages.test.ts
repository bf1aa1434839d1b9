import { describe, expect, it } from 'vitest';
import { applyDelta, attachmentsOf, mergeMessages, serverCount, type ChatMessage } from './messages.js';

const at = (min: number) => new Date(Date.UTC(2026, 10, 23, 9, min)).toISOString();

describe('mergeMessages', () => {
  it('appends stream messages, prepends older history, and updates known ids in place', () => {
    const list: ChatMessage[] = [{ id: '2', role: 'bot', text: 'two', src: 's' }];
    const streamed = mergeMessages(list, [{ id: '3', role: 'bot', text: 'three' }], 's');
    expect(streamed.map((m) => m.id)).toEqual(['2', '3']);
    const older = mergeMessages(streamed, [{ id: '1', role: 'bot', text: 'one' }, { id: '2', role: 'bot', text: 'two, edited' }], 'h', true);
    expect(older.map((m) => [m.id, m.text])).toEqual([['1', 'one'], ['2', 'two, edited'], ['3', 'three']]);
  });

  it('replaces the optimistic message with the echo of its clientId, clearing pending', () => {
    const list: ChatMessage[] = [{ id: 'c1', clientId: 'c1', role: 'user', text: 'hi', src: 'l', pending: 'sending' }];
    const out = mergeMessages(list, [{ id: 'u_9', clientId: 'c1', role: 'user', text: 'hi' }], 's');
    expect(out).toEqual([{ id: 'u_9', clientId: 'c1', role: 'user', text: 'hi', src: 's', pending: undefined, streaming: undefined }]);
  });

  it('takes a user message from history and the same one from the stream, close in time, as one', () => {
    const list: ChatMessage[] = [{ id: 'u_1', role: 'user', text: 'order?', src: 's', createdAt: at(0) }];
    expect(mergeMessages(list, [{ id: '77', role: 'user', text: 'order?', createdAt: at(1) }], 'h', true)).toHaveLength(1);
    // Asked again an hour later: another message.
    expect(mergeMessages(list, [{ id: '78', role: 'user', text: 'order?', createdAt: at(59) }], 'h', true)).toHaveLength(2);
  });

  it('does not merge the same id twice within one batch', () => {
    expect(mergeMessages([], [{ id: '1', role: 'bot', text: 'a' }, { id: '1', role: 'bot', text: 'b' }], 's')).toEqual([
      { id: '1', role: 'bot', text: 'b', src: 's', pending: undefined, streaming: undefined },
    ]);
  });
});

describe('applyDelta', () => {
  it('creates the streamed message on the first delta and appends the rest', () => {
    const one = applyDelta([], 'm', 'Hel');
    expect(one).toEqual([{ id: 'm', role: 'bot', text: 'Hel', src: 's', streaming: true }]);
    expect(applyDelta(one, 'm', 'lo')[0]!.text).toBe('Hello');
    expect(one[0]!.text).toBe('Hel'); // pure: the input list is not changed
  });
});

describe('serverCount', () => {
  it('counts what the BFF knows of, not optimistic messages', () => {
    expect(serverCount([{ id: 'a', role: 'bot', src: 'h' }, { id: 'b', role: 'user', src: 'l' }, { id: 'c', role: 'bot', src: 's' }])).toBe(2);
  });
});

describe('attachmentsOf', () => {
  it('splits the trailing "📎 names" line from the words; a 📎 elsewhere is just text', () => {
    expect(attachmentsOf('my receipt\n📎 a.pdf, b.png')).toEqual({ text: 'my receipt', names: ['a.pdf', 'b.png'] });
    expect(attachmentsOf('📎 a.pdf')).toEqual({ text: '', names: ['a.pdf'] });
    expect(attachmentsOf('I used the 📎 button')).toEqual({ text: 'I used the 📎 button', names: [] });
    expect(attachmentsOf('📎 a.pdf\nand then')).toEqual({ text: '📎 a.pdf\nand then', names: [] });
  });
});
