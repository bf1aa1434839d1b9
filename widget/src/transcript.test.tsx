import { beforeAll, describe, expect, it } from 'vitest';
import { whoWrote } from './authors.js';
import { pickStrings } from './i18n.js';
import { loadMarkdown } from './markdown.js';
import type { ChatMessage } from './messages.js';
import { badgeText } from './badges/index.js';
import { loadParts } from './ui/Part.js';
import '../test/support.js'; // says where the parts chunk comes from
import { plainText, transcriptName, transcriptText } from './transcript.js';

const t = pickStrings();
const who = (m: ChatMessage) => whoWrote(m, t);
const now = new Date(2026, 10, 25, 9, 30);

// The transcript is written by the parts chunk, which has the rare badge kinds' words too.
// The text reads answers through the Markdown chunk, which saving a transcript loads first (conversation-file.ts).
beforeAll(() => Promise.all([loadParts(), loadMarkdown()]));

describe('transcript', () => {
  it('starts with the title, the date and the greeting, and names every author', () => {
    const messages: ChatMessage[] = [
      { id: '1', role: 'user', text: 'Where is **my** order?' },
      { id: '2', role: 'bot', text: 'On its way.', author: { kind: 'bot', name: 'Nora' } },
      { id: '3', role: 'operator', text: 'Anything else?', author: { kind: 'operator', name: 'Sam Lee' } },
    ];
    expect(transcriptText(messages, { title: 'Green Shop', greeting: 'Hi! Ask me **anything**.' }, t, 'en-GB', who, now)).toBe(
      'Green Shop\nWednesday, 25 November 2026\n\n' +
        'Assistant: Hi! Ask me anything.\n\n' +
        'You: Where is **my** order?\n\n' + // the visitor's own words, as typed
        'Nora: On its way.\n\n' +
        'Sam Lee joined the conversation\n\nSam Lee: Anything else?\n\n',
    );
  });

  it('writes Markdown as the text a reader sees', () => {
    const md = 'Send it back **free** within _30 days_:\n\n1. Open [your orders](https://shop.example/orders)\n2. Choose `Return`\n\n- one\n- two\n\n```\nNO-1 <b>\n```';
    expect(plainText(md, t)).toBe(
      'Send it back free within 30 days:\n\n1. Open your orders (https://shop.example/orders)\n2. Choose Return\n\n- one\n- two\n\nNO-1 <b>',
    );
  });

  it('indents nested list items under theirs, with no blank line between', () => {
    const md = '1. Measure both feet\n   - add **half a size**\n   - wear your socks\n2. Break them in\n\n- outer\n  - inner';
    expect(plainText(md, t)).toBe('1. Measure both feet\n   - add half a size\n   - wear your socks\n2. Break them in\n\n- outer\n  - inner');
  });

  it('writes headings, tables, quotes, task lists and images as text', () => {
    const md = '## Sizes\n\n| Size | EU |\n|---|---|\n| M | 42 |\n| L | 44 |\n\n> Keep the receipt.\n\n- [x] paid\n- ~~express~~ standard\n\n![Size chart](https://shop.example/chart.png)';
    expect(plainText(md, t)).toBe('Sizes\n\nSize | EU\nM | 42\nL | 44\n\nKeep the receipt.\n\n- ☑ paid\n- ~~express~~ standard\n\nSize chart (https://shop.example/chart.png)');
  });

  it('writes rich elements as words: labels of buttons and quick replies, cards by title and subtitle', () => {
    const button = (label: string) => ({ label, action: 'postback' as const, value: label });
    expect(badgeText({ type: 'quick_replies', text: 'Anything else?', replies: [button('Yes'), button('No')] })).toBe('Anything else?\n[Yes] [No]');
    expect(badgeText({ type: 'buttons', buttons: [button('Track order')] })).toBe('[Track order]');
    expect(
      badgeText({
        type: 'carousel',
        cards: [
          { title: 'Trail tent', subtitle: '2 people, 1.9 kg', buttons: [button('Choose')] },
          { title: 'Dome tent', buttons: [] },
        ],
      }),
    ).toBe('Trail tent\n2 people, 1.9 kg\n[Choose]\n\nDome tent');
    expect(badgeText({ type: 'card', card: { title: 'Gift card', subtitle: 'From €10', buttons: [] } })).toBe('Gift card\nFrom €10');
    const messages: ChatMessage[] = [{ id: '1', role: 'bot', text: 'Pick one:', badge: { type: 'buttons', buttons: [button('A'), button('B')] } }];
    expect(transcriptText(messages, { title: 'Chat' }, t, 'en', who, now)).toContain('Assistant: Pick one:\n[A] [B]\n\n');
  });

  it('in a right-to-left language, starts every line with a right-to-left mark (a text editor lays it out as the widget did)', () => {
    const messages: ChatMessage[] = [{ id: '1', role: 'user', text: 'Thanks Mara\nbye', createdAt: '2026-11-25T09:00:00.000Z' }];
    const lines = transcriptText(messages, { title: 'متجر' }, t, 'ar-EG', who, now).split('\n');
    expect(lines.filter((l) => l && !l.startsWith('\u200F'))).toEqual([]);
    expect(lines.filter(Boolean)).toHaveLength(4); // title, date, the message's two lines
    expect(transcriptText(messages, { title: 'Shop' }, t, 'en', who, now)).not.toContain('\u200F');
  });

  it('names the file after the title and the date, without characters file systems refuse', () => {
    expect(transcriptName('Green Shop', now)).toBe('Green Shop 2026-11-25.txt');
    expect(transcriptName('A/B: "Help"?', now)).toBe('A-B- -Help- 2026-11-25.txt');
  });
});
