import { describe, expect, it } from 'vitest';
import { parseBadge, parseMessageText, safeUrl, summarizeBadge } from './badge.js';
import { BADGE_KINDS, BADGE_TYPES, familyOfName } from './badge-kinds.js';
import type { Badge } from './types.js';

const UNSAFE_LINKS = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  '\u0001javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'vbscript:msgbox(1)',
  '//evil.com',
  '/relative/path',
  'relative/path',
  'https:evil.com',
  'https://user:secret@example.com/',
  'https://example.com\\@evil.com',
  'https://exa mple.com/',
  'https://exa\u200Bmple.com/',
  'tel:+123',
  'ftp://example.com/',
  'file:///etc/passwd',
  'mailto:',
  '',
];

describe('safeUrl', () => {
  it('keeps http, https and mailto links, trimmed and normalised', () => {
    expect(safeUrl('https://Example.com')).toBe('https://example.com/');
    expect(safeUrl('  http://example.com/a?b=1#c  ')).toBe('http://example.com/a?b=1#c');
    expect(safeUrl('HTTPS://example.com/a b')).toBe('https://example.com/a%20b');
    expect(safeUrl('mailto:help@example.com?subject=Hi there')).toBe('mailto:help@example.com?subject=Hi%20there');
  });

  it.each(UNSAFE_LINKS)('rejects %j', (value) => {
    expect(safeUrl(value)).toBeUndefined();
  });

  it('rejects non-strings and over-long URLs', () => {
    expect(safeUrl(undefined)).toBeUndefined();
    expect(safeUrl(42)).toBeUndefined();
    expect(safeUrl({ url: 'https://example.com/' })).toBeUndefined();
    expect(safeUrl(`https://example.com/${'a'.repeat(3000)}`)).toBeUndefined();
  });

  it('is idempotent', () => {
    for (const url of ['https://EXAMPLE.com/ü?q=ä b', 'mailto:a b@example.com', 'http://example.com:80/x/../y']) {
      const once = safeUrl(url);
      expect(once).toBeDefined();
      expect(safeUrl(once)).toBe(once);
    }
  });
});

describe('parseBadge: buttons', () => {
  it('reads type/buttons/title/payload', () => {
    expect(parseBadge({ type: 'buttons', text: 'Pick one', buttons: [{ title: 'A', payload: 'a' }, { title: 'B', payload: 'b' }] })).toEqual({
      type: 'buttons',
      text: 'Pick one',
      buttons: [
        { label: 'A', action: 'postback', value: 'a' },
        { label: 'B', action: 'postback', value: 'b' },
      ],
    });
  });

  it('reads kind/options/label/value and an uppercase, dashed type name', () => {
    expect(parseBadge({ kind: 'BUTTON', options: [{ label: ' Yes ', value: 'yes' }] })).toEqual({
      type: 'buttons',
      buttons: [{ label: 'Yes', action: 'postback', value: 'yes' }],
    });
    expect(parseBadge({ template_type: 'button-template', choices: [{ name: 'Go', value: 1 }] })).toEqual({
      type: 'buttons',
      buttons: [{ label: 'Go', action: 'postback', value: '1' }],
    });
  });

  it('infers buttons from the shape when no type is given', () => {
    expect(parseBadge({ text: 'Choose', choices: [{ text: 'One' }, { text: 'Two' }] })).toEqual({
      type: 'buttons',
      text: 'Choose',
      buttons: [
        { label: 'One', action: 'postback', value: 'One' },
        { label: 'Two', action: 'postback', value: 'Two' },
      ],
    });
  });

  it('makes a link of a safe URL value or a link-typed button, a postback of anything else', () => {
    const badge = parseBadge({
      buttons: [
        { title: 'Docs', url: 'https://example.com/docs' },
        { title: 'Site', type: 'web_url', value: 'https://example.com' },
        { label: 'Mail', value: 'mailto:help@example.com' },
        { label: 'Write', type: 'email', value: 'help@example.com' },
        { label: 'Buy', payload: 'BUY_NOW' },
        { label: 'Open', action: { type: 'uri', uri: 'https://example.com/o' } },
      ],
    });
    expect(badge).toEqual({
      type: 'buttons',
      buttons: [
        { label: 'Docs', action: 'link', value: 'https://example.com/docs' },
        { label: 'Site', action: 'link', value: 'https://example.com/' },
        { label: 'Mail', action: 'link', value: 'mailto:help@example.com' },
        { label: 'Write', action: 'link', value: 'mailto:help@example.com' },
        { label: 'Buy', action: 'postback', value: 'BUY_NOW' },
        { label: 'Open', action: 'link', value: 'https://example.com/o' },
      ],
    });
  });

  it.each(UNSAFE_LINKS.filter((link) => link.trim() !== ''))('drops a button linking to %j', (link) => {
    const badge = parseBadge({
      buttons: [
        { title: 'Bad', url: link },
        { title: 'Bad too', type: 'web_url', payload: link },
        { title: 'Good', payload: 'ok' },
      ],
    });
    expect(badge).toEqual({ type: 'buttons', buttons: [{ label: 'Good', action: 'postback', value: 'ok' }] });
  });

  it('drops a script or protocol-relative link given as a plain value', () => {
    for (const value of ['javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'java\tscript:x', 'data:text/html,x', '//evil.com']) {
      expect(parseBadge({ buttons: [{ title: 'X', value }, { title: 'Y' }] })).toEqual({
        type: 'buttons',
        buttons: [{ label: 'Y', action: 'postback', value: 'Y' }],
      });
    }
  });

  it('drops buttons without a label and buttons a web chat cannot offer', () => {
    expect(
      parseBadge({ buttons: [{ payload: 'x' }, { title: '   ' }, { type: 'phone_number', title: 'Call', payload: '+123' }, { title: 'Ok' }] }),
    ).toEqual({ type: 'buttons', buttons: [{ label: 'Ok', action: 'postback', value: 'Ok' }] });
  });

  it('turns an object payload into one of its strings, and a JSON payload into the label', () => {
    expect(parseBadge({ buttons: [{ title: 'A', payload: { value: 'alpha' } }, { title: 'B', payload: '{"intent":"b"}' }, { title: 'C', payload: { x: 1 } }] })).toEqual({
      type: 'buttons',
      buttons: [
        { label: 'A', action: 'postback', value: 'alpha' },
        { label: 'B', action: 'postback', value: 'B' },
        { label: 'C', action: 'postback', value: 'C' },
      ],
    });
  });

  it('bounds labels, values and the number of buttons', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({ title: `B${i}`, payload: `p${i}` }));
    const badge = parseBadge({ buttons: [{ title: 'x'.repeat(500), payload: 'y'.repeat(5000) }, ...many] });
    if (badge.type !== 'buttons') throw new Error(`expected buttons, got ${badge.type}`);
    expect(badge.buttons).toHaveLength(20);
    expect(badge.buttons[0]?.label.length).toBeLessThanOrEqual(200);
    expect(badge.buttons[0]?.value.length).toBeLessThanOrEqual(1000);
    expect(badge.buttons[0]?.label.endsWith('…')).toBe(true);
  });

  it('lets the structure decide when the type name is unknown', () => {
    expect(parseBadge({ type: 'interactive', text: 'Pick', buttons: [{ title: 'A' }] })).toEqual({
      type: 'buttons',
      text: 'Pick',
      buttons: [{ label: 'A', action: 'postback', value: 'A' }],
    });
  });

  it('drops a script link given as a plain string option', () => {
    expect(parseBadge(['javascript:alert(1)', 'Ok'])).toEqual({
      type: 'quick_replies',
      replies: [{ label: 'Ok', action: 'postback', value: 'Ok' }],
    });
  });

  it('is unsupported when no button survives', () => {
    expect(parseBadge({ type: 'buttons', text: 'Pick', buttons: [{ url: 'javascript:alert(1)', title: 'X' }] })).toEqual({
      type: 'unsupported',
      summary: 'Pick · X',
    });
  });
});

describe('parseBadge: quick replies', () => {
  it('reads type quick_replies with quick_replies', () => {
    expect(parseBadge({ type: 'quick_replies', text: 'Size?', quick_replies: [{ title: 'S', payload: 'SIZE_S' }] })).toEqual({
      type: 'quick_replies',
      text: 'Size?',
      replies: [{ label: 'S', action: 'postback', value: 'SIZE_S' }],
    });
  });

  it.each(['quickReplies', 'quick-replies', 'quickreply', 'Quick Replies', 'chips', 'suggestions'])('reads the type name %j', (name) => {
    expect(parseBadge({ kind: name, options: ['Yes', 'No'] })).toEqual({
      type: 'quick_replies',
      replies: [
        { label: 'Yes', action: 'postback', value: 'Yes' },
        { label: 'No', action: 'postback', value: 'No' },
      ],
    });
  });

  it('infers quick replies from a quickReplies or suggestions field', () => {
    expect(parseBadge({ text: 'More?', quickReplies: [{ text: 'Yes' }] })).toMatchObject({ type: 'quick_replies', text: 'More?' });
    expect(parseBadge({ suggestions: [{ title: 'Help', value: 'help' }] })).toMatchObject({
      type: 'quick_replies',
      replies: [{ label: 'Help', action: 'postback', value: 'help' }],
    });
  });
});

describe('parseBadge: cards and carousels', () => {
  const card = {
    title: 'Blue shirt',
    subtitle: 'Cotton',
    image_url: 'https://cdn.example.com/shirt.jpg',
    buttons: [{ type: 'web_url', title: 'View', url: 'https://shop.example.com/shirt' }],
  };
  const parsedCard = {
    title: 'Blue shirt',
    subtitle: 'Cotton',
    imageUrl: 'https://cdn.example.com/shirt.jpg',
    buttons: [{ label: 'View', action: 'link', value: 'https://shop.example.com/shirt' }],
  };

  it('reads a card with type card, and one with kind hero_card and other field names', () => {
    expect(parseBadge({ type: 'card', ...card })).toEqual({ type: 'card', card: parsedCard });
    expect(
      parseBadge({
        kind: 'hero_card',
        header: 'Blue shirt',
        description: 'Cotton',
        imageUrl: 'https://cdn.example.com/shirt.jpg',
        url: 'https://shop.example.com/shirt',
      }),
    ).toEqual({
      type: 'card',
      card: { title: 'Blue shirt', subtitle: 'Cotton', imageUrl: 'https://cdn.example.com/shirt.jpg', url: 'https://shop.example.com/shirt', buttons: [] },
    });
  });

  it('infers a card from title, subtitle and image', () => {
    expect(parseBadge(card)).toEqual({ type: 'card', card: parsedCard });
  });

  it('drops unsafe card and image URLs but keeps the card', () => {
    expect(parseBadge({ type: 'card', title: 'T', image: 'data:image/png;base64,AAAA', url: 'javascript:alert(1)' })).toEqual({
      type: 'card',
      card: { title: 'T', buttons: [] },
    });
  });

  it('reads carousels as cards/carousel, elements/gallery, and items of image cards', () => {
    const expected = { type: 'carousel', cards: [parsedCard, { ...parsedCard, title: 'Red shirt' }] };
    expect(parseBadge({ type: 'carousel', cards: [card, { ...card, title: 'Red shirt' }] })).toEqual(expected);
    expect(parseBadge({ kind: 'gallery', elements: [card, { ...card, title: 'Red shirt' }] })).toEqual(expected);
    expect(parseBadge({ items: [card, { ...card, title: 'Red shirt' }] })).toEqual(expected);
    expect(parseBadge({ cards: [card, { ...card, title: 'Red shirt' }] })).toEqual(expected);
  });

  it('reads a Messenger generic template: one element is a card, several a carousel', () => {
    const wrap = (elements: unknown[]) => ({ attachment: { type: 'template', payload: { template_type: 'generic', elements } } });
    expect(parseBadge(wrap([card]))).toEqual({ type: 'card', card: parsedCard });
    expect(parseBadge(wrap([card, card]))).toEqual({ type: 'carousel', cards: [parsedCard, parsedCard] });
  });

  it('reads a Bot Framework hero card attachment', () => {
    const activity = {
      type: 'message',
      text: 'Our pick',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.hero',
          content: { title: 'Hero', images: [{ url: 'https://example.com/h.jpg' }], buttons: [{ type: 'openUrl', title: 'Go', value: 'https://go.example.com' }] },
        },
      ],
    };
    expect(parseMessageText(JSON.stringify(activity))).toEqual({
      text: 'Our pick',
      badge: {
        type: 'card',
        card: { title: 'Hero', imageUrl: 'https://example.com/h.jpg', buttons: [{ label: 'Go', action: 'link', value: 'https://go.example.com/' }] },
      },
    });
  });

  it('caps a carousel at 20 cards', () => {
    const badge = parseBadge({ type: 'carousel', cards: Array.from({ length: 30 }, (_, i) => ({ ...card, title: `C${i}` })) });
    expect(badge.type === 'carousel' && badge.cards.length).toBe(20);
  });
});

describe('parseBadge: lists', () => {
  it('reads type list with items, and list_template with elements', () => {
    const expected = { type: 'list', text: 'Menu', items: [{ title: 'Soup', subtitle: '5 €' }, { title: 'Salad' }] };
    expect(parseBadge({ type: 'list', text: 'Menu', items: [{ title: 'Soup', subtitle: '5 €' }, 'Salad'] })).toEqual(expected);
    expect(parseBadge({ kind: 'list_template', text: 'Menu', elements: [{ name: 'Soup', description: '5 €' }, { label: 'Salad' }] })).toEqual(expected);
  });

  it('infers a list from items with subtitles and no images', () => {
    expect(parseBadge({ items: [{ title: 'A', subtitle: 'a' }, { title: 'B', subtitle: 'b', url: 'https://example.com/b' }] })).toEqual({
      type: 'list',
      items: [{ title: 'A', subtitle: 'a' }, { title: 'B', subtitle: 'b', url: 'https://example.com/b' }],
    });
  });

  it('caps a list at 50 items and drops items without a title', () => {
    const badge = parseBadge({ type: 'list', items: [{ subtitle: '' }, ...Array.from({ length: 60 }, (_, i) => `Item ${i}`)] });
    expect(badge.type === 'list' && badge.items.length).toBe(50);
    expect(badge.type === 'list' && badge.items[0]).toEqual({ title: 'Item 0' });
  });
});

describe('parseBadge: images and files', () => {
  it('reads images as type/url/alt, kind/src/caption and image_url without a type', () => {
    expect(parseBadge({ type: 'image', url: 'https://example.com/cat.png', alt: 'A cat' })).toEqual({
      type: 'image',
      url: 'https://example.com/cat.png',
      alt: 'A cat',
    });
    expect(parseBadge({ kind: 'picture', src: 'https://example.com/cat.png', caption: 'Meet Tom' })).toEqual({
      type: 'image',
      url: 'https://example.com/cat.png',
      caption: 'Meet Tom',
    });
    expect(parseBadge({ image_url: 'https://example.com/cat.png' })).toEqual({ type: 'image', url: 'https://example.com/cat.png' });
    expect(parseBadge({ attachment: { type: 'image', payload: { url: 'https://example.com/cat.png' } } })).toEqual({
      type: 'image',
      url: 'https://example.com/cat.png',
    });
  });

  it('reads files as type/url/name and kind document/fileUrl/filename, with size and MIME type', () => {
    expect(parseBadge({ type: 'file', url: 'https://example.com/r.pdf', name: 'Report', size: 1234, mimeType: 'application/pdf' })).toEqual({
      type: 'file',
      url: 'https://example.com/r.pdf',
      name: 'Report',
      size: 1234,
      mimeType: 'application/pdf',
    });
    expect(parseBadge({ kind: 'document', fileUrl: 'https://example.com/r.pdf', filename: 'r.pdf', file_size: '99', mime_type: '<b>' })).toEqual({
      type: 'file',
      url: 'https://example.com/r.pdf',
      name: 'r.pdf',
      size: 99,
    });
  });

  it('names a file after its URL when no name is given', () => {
    expect(parseBadge({ type: 'attachment', url: 'https://example.com/files/Q1%20report.pdf' })).toEqual({
      type: 'file',
      url: 'https://example.com/files/Q1%20report.pdf',
      name: 'Q1 report.pdf',
    });
  });

  it('is unsupported when the image or file URL is not safe', () => {
    expect(parseBadge({ type: 'image', url: 'javascript:alert(1)', alt: 'x' })).toEqual({ type: 'unsupported', summary: 'x' });
    expect(parseBadge({ type: 'file', url: 'mailto:a@example.com', name: 'f' })).toEqual({ type: 'unsupported', summary: 'f' });
  });
});

describe('parseBadge: unsupported', () => {
  it.each([{}, [], null, 42, true, { type: 'buttons' }, { type: 'carousel', cards: [] }])('%j is unsupported', (raw) => {
    expect(parseBadge(raw)).toEqual({ type: 'unsupported', summary: 'Unsupported content' });
  });

  it('summarises readable strings, never raw JSON, within 300 characters', () => {
    expect(parseBadge({ type: 'survey', title: 'Rate us', question: 'How was it?', meta: { json: '{"a":1}' } })).toEqual({
      type: 'unsupported',
      summary: 'Rate us · How was it?',
    });
    const long = parseBadge({ type: 'x', text: 'word '.repeat(200) });
    expect(long.type === 'unsupported' && long.summary.length).toBeLessThanOrEqual(300);
  });

  it('reads JSON text handed to it', () => {
    expect(parseBadge('{"type":"image","url":"https://example.com/a.png"}')).toEqual({ type: 'image', url: 'https://example.com/a.png' });
  });
});

describe('parseMessageText', () => {
  it.each(['Hello', '  spaced  ', '[Draft] note', '{not json', '123', '"123"', 'true', 'null', '', 'a {"b"'])('keeps %j as text', (message) => {
    expect(parseMessageText(message)).toEqual({ text: message });
  });

  it('turns a JSON object into a badge, never text', () => {
    expect(parseMessageText(' {"type":"buttons","buttons":[{"title":"A","payload":"a"}]} ')).toEqual({
      badge: { type: 'buttons', buttons: [{ label: 'A', action: 'postback', value: 'a' }] },
    });
  });

  it('reads double-encoded JSON', () => {
    const inner = JSON.stringify({ type: 'image', url: 'https://example.com/a.png' });
    expect(parseMessageText(JSON.stringify(inner))).toEqual({ badge: { type: 'image', url: 'https://example.com/a.png' } });
  });

  it('reads arrays: strings are quick replies, buttons are buttons, cards a carousel', () => {
    expect(parseMessageText('["Yes","No"]')).toEqual({
      badge: {
        type: 'quick_replies',
        replies: [
          { label: 'Yes', action: 'postback', value: 'Yes' },
          { label: 'No', action: 'postback', value: 'No' },
        ],
      },
    });
    expect(parseMessageText('[{"title":"A","payload":"a"},{"title":"B","url":"https://example.com"}]')).toEqual({
      badge: {
        type: 'buttons',
        buttons: [
          { label: 'A', action: 'postback', value: 'a' },
          { label: 'B', action: 'link', value: 'https://example.com/' },
        ],
      },
    });
    expect(parseMessageText('[{"title":"A","image":"https://example.com/a.png"},{"title":"B","image":"https://example.com/b.png"}]')).toEqual({
      badge: {
        type: 'carousel',
        cards: [
          { title: 'A', imageUrl: 'https://example.com/a.png', buttons: [] },
          { title: 'B', imageUrl: 'https://example.com/b.png', buttons: [] },
        ],
      },
    });
    expect(parseMessageText('[{"content_type":"text","title":"Red","payload":"RED"}]')).toEqual({
      badge: { type: 'quick_replies', replies: [{ label: 'Red', action: 'postback', value: 'RED' }] },
    });
  });

  it('puts a leading text element into the badge', () => {
    expect(parseMessageText('[{"type":"text","text":"Pick"},{"type":"buttons","buttons":["x"]}]')).toEqual({
      badge: { type: 'buttons', text: 'Pick', buttons: [{ label: 'x', action: 'postback', value: 'x' }] },
    });
  });

  it('returns text beside a badge that has no place for it', () => {
    expect(parseMessageText('{"text":"Look","type":"card","title":"T","subtitle":"S","image":"https://example.com/t.png"}')).toEqual({
      text: 'Look',
      badge: { type: 'card', card: { title: 'T', subtitle: 'S', imageUrl: 'https://example.com/t.png', buttons: [] } },
    });
  });

  it('returns the text of a text-only element', () => {
    expect(parseMessageText('{"type":"text","text":"Just text"}')).toEqual({ text: 'Just text' });
    expect(parseMessageText('{"message":"Hi there"}')).toEqual({ text: 'Hi there' });
  });

  it('makes empty and malformed JSON unsupported, never text', () => {
    for (const message of ['{}', '[]', '[{}]', '{"type":"butt', '  [{"a":']) {
      expect(parseMessageText(message)).toEqual({ badge: { type: 'unsupported', summary: 'Unsupported content' } });
    }
  });

  it('reads Dialogflow rich content chips', () => {
    const message = { payload: { richContent: [[{ type: 'chips', options: [{ text: 'A' }, { text: 'B', link: 'https://example.com/b' }] }]] } };
    expect(parseMessageText(JSON.stringify(message))).toEqual({
      badge: {
        type: 'quick_replies',
        replies: [
          { label: 'A', action: 'postback', value: 'A' },
          { label: 'B', action: 'link', value: 'https://example.com/b' },
        ],
      },
    });
  });
});

describe('summarizeBadge', () => {
  const link = { label: 'Docs', action: 'link', value: 'https://example.com/' } as const;
  it.each<[Badge, string]>([
    [{ type: 'buttons', text: 'Pick', buttons: [link] }, 'Pick'],
    [{ type: 'buttons', buttons: [link, { ...link, label: 'Help' }] }, 'Docs · Help'],
    [{ type: 'quick_replies', replies: [link] }, 'Docs'],
    [{ type: 'card', card: { title: 'Shirt', subtitle: 'Blue', buttons: [] } }, 'Shirt · Blue'],
    [{ type: 'carousel', cards: [{ title: 'A', buttons: [] }, { title: 'B', buttons: [] }] }, 'A · B'],
    [{ type: 'list', text: 'Menu', items: [{ title: 'Soup' }] }, 'Menu'],
    [{ type: 'image', url: 'https://example.com/a.png' }, 'Image'],
    [{ type: 'image', url: 'https://example.com/a.png', alt: 'A cat' }, 'A cat'],
    [{ type: 'file', url: 'https://example.com/r.pdf', name: 'r.pdf' }, 'r.pdf'],
    [{ type: 'unsupported', summary: 'Rate us' }, 'Rate us'],
  ])('%j reads %j', (badge, summary) => {
    expect(summarizeBadge(badge)).toBe(summary);
  });
});

describe('every badge kind (badge-kinds.ts)', () => {
  it.each(BADGE_TYPES)('%s: its sample reads back as a %s, with no text beside it', (kind) => {
    expect(parseMessageText(JSON.stringify(BADGE_KINDS[kind].sample))).toEqual({ badge: expect.objectContaining({ type: kind }) });
  });

  it.each(BADGE_TYPES.filter((kind) => kind !== 'unsupported'))('%s: each of its type names points at it, and none at another kind', (kind) => {
    const names = BADGE_KINDS[kind].names.split(' ');
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(familyOfName(name), name).toBe(kind);
    for (const other of BADGE_TYPES.filter((k) => k !== kind)) for (const name of BADGE_KINDS[other].names.split(' ').filter(Boolean)) expect(names).not.toContain(name);
  });

  it('a kind with a text slot takes the intro of a wrapper around it; one without has it beside', () => {
    expect(parseMessageText(JSON.stringify({ text: 'Pick one', attachment: { type: 'buttons', buttons: ['A'] } }))).toEqual({ badge: { type: 'buttons', text: 'Pick one', buttons: [{ label: 'A', action: 'postback', value: 'A' }] } });
    expect(parseMessageText(JSON.stringify({ text: 'Our map', attachment: { type: 'image', url: 'https://example.com/m.png' } }))).toEqual({ text: 'Our map', badge: { type: 'image', url: 'https://example.com/m.png' } });
  });
});
