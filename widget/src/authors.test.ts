import { describe, expect, it } from 'vitest';
import { colourOf, firstOfOperators, initials, pictureUrl, startsGroup, whoWrote } from './authors.js';
import type { ChatMessage } from './messages.js';
import { pickStrings } from './i18n.js';

const t = pickStrings();

describe('initials', () => {
  it('takes the first letters of the first and last word, upper case, whole characters', () => {
    expect(initials('Mara Lindqvist')).toBe('ML');
    expect(initials('  juniper ')).toBe('J');
    expect(initials('Ana María de la Cruz')).toBe('AC');
    expect(initials('𝓩oë Ølund')).toBe('𝓩Ø');
    expect(initials('')).toBe('');
  });
});

describe('colourOf', () => {
  it('gives a name the same colour every time, and different names can differ', () => {
    expect(colourOf('Mara Lindqvist')).toBe(colourOf('Mara Lindqvist'));
    expect(new Set(['Ada', 'Ben', 'Mara', 'Theo', 'Sam', 'Juniper'].map(colourOf)).size).toBeGreaterThan(1);
  });
});

describe('pictureUrl', () => {
  it('puts site-relative pictures on the BFF origin, keeps https, refuses anything else', () => {
    expect(pictureUrl('/demo/assets/mara.svg', 'https://chat.example.com')).toBe('https://chat.example.com/demo/assets/mara.svg');
    expect(pictureUrl('https://cdn.example.com/a.png', 'http://localhost:8787')).toBe('https://cdn.example.com/a.png');
    expect(pictureUrl('http://elsewhere.example/a.png', 'https://chat.example.com')).toBeUndefined();
    expect(pictureUrl('javascript:alert(1)', 'https://chat.example.com')).toBeUndefined();
  });
});

describe('whoWrote and startsGroup', () => {
  it("names the bot by the page's choice over the message's, and an operator by author, else operatorName, else the widget's word", () => {
    expect(whoWrote({ role: 'bot', author: { kind: 'bot', name: 'Juniper' } }, t, { name: 'Sage' }).name).toBe('Sage');
    expect(whoWrote({ role: 'bot', author: { kind: 'bot', name: 'Juniper', avatarUrl: '/j.svg' } }, t, {}).avatarUrl).toBe('/j.svg');
    expect(whoWrote({ role: 'operator', operatorName: 'Sam' }, t).name).toBe('Sam');
    expect(whoWrote({ role: 'operator' }, t)).toEqual({ kind: 'operator', name: 'Team member', named: false });
  });

  it('starts a group when the author, their name or picture changes', () => {
    const mara = whoWrote({ role: 'operator', author: { kind: 'operator', name: 'Mara' } }, t);
    expect(startsGroup(mara, undefined)).toBe(true);
    expect(startsGroup(mara, { ...mara })).toBe(false);
    expect(startsGroup(mara, { ...mara, name: 'Theo' })).toBe(true);
    expect(startsGroup(mara, { ...mara, kind: 'bot' })).toBe(true);
  });
});

describe('firstOfOperators: where "joined the conversation" goes', () => {
  const op = (id: string, name: string, src: ChatMessage['src']): ChatMessage => ({ id, role: 'operator', operatorName: name, text: id, src });
  const who = (m: ChatMessage) => whoWrote(m, t);

  it("before each operator's first message, once older history is all there", () => {
    expect([...firstOfOperators([op('m1', 'Mara', 'h'), op('m2', 'Mara', 'h'), op('t1', 'Theo', 's')], who)]).toEqual(['m1', 't1']);
  });

  it('with older history not loaded, only before one first met on the stream: the page may start in the middle', () => {
    expect([...firstOfOperators([op('m5', 'Mara', 'h'), op('t1', 'Theo', 's'), op('m6', 'Mara', 's')], who, true)]).toEqual(['t1']);
  });
});
