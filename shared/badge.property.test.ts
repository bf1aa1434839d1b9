import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseBadge, parseMessageText, safeUrl } from './badge.js';
import type { Badge, BadgeButton, BadgeCard, BadgeListItem } from './types.js';

// Independent of the parser's own helpers, so that a bug there cannot hide here.
function isRawJson(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.startsWith('{"') || trimmed.startsWith('[{')) return true;
  try {
    const value: unknown = JSON.parse(trimmed);
    return typeof value === 'object' && value !== null;
  } catch {
    return false;
  }
}

/** Every problem with a badge: shape, bounds, unsafe URLs, raw JSON. Empty when the badge is valid. */
function problems(badge: Badge): string[] {
  const found: string[] = [];
  const check = (ok: boolean, what: string): void => {
    if (!ok) found.push(what);
  };
  const keysWithin = (obj: object, allowed: string[], where: string): void => {
    for (const key of Object.keys(obj)) check(allowed.includes(key), `${where}: unexpected key ${key}`);
  };
  const text = (value: unknown, max: number, where: string, optional = true): void => {
    if (value === undefined && optional) return;
    check(typeof value === 'string' && value.length > 0 && value.length <= max, `${where}: bad text`);
    if (typeof value === 'string') check(!isRawJson(value), `${where}: raw JSON`);
  };
  const url = (value: unknown, where: string, http = false): void => {
    if (value === undefined) return;
    check(typeof value === 'string' && safeUrl(value) === value, `${where}: unsafe URL ${String(value)}`);
    if (http) check(typeof value === 'string' && /^https?:\/\//.test(value), `${where}: not http(s)`);
  };
  const buttons = (list: BadgeButton[], where: string, nonEmpty: boolean): void => {
    check(Array.isArray(list) && list.length <= 20 && (!nonEmpty || list.length > 0), `${where}: bad count`);
    for (const button of list) {
      keysWithin(button, ['label', 'action', 'value'], where);
      text(button.label, 200, `${where}.label`, false);
      check(button.action === 'postback' || button.action === 'link', `${where}: bad action`);
      if (button.action === 'link') url(button.value, `${where}.value`);
      else text(button.value, 1000, `${where}.value`, false);
    }
  };
  const card = (c: BadgeCard | BadgeListItem, where: string, isCard: boolean): void => {
    keysWithin(c, ['title', 'subtitle', 'imageUrl', 'url', 'buttons'], where);
    check(typeof c.title === 'string' && c.title.length <= 200, `${where}: bad title`);
    check(c.title !== '' || (isCard && c.imageUrl !== undefined), `${where}: empty title`);
    if (c.title !== '') text(c.title, 200, `${where}.title`);
    text(c.subtitle, 1000, `${where}.subtitle`);
    url(c.imageUrl, `${where}.imageUrl`, true);
    url(c.url, `${where}.url`);
    if (isCard || c.buttons !== undefined) buttons(c.buttons ?? [], `${where}.buttons`, !isCard);
  };

  switch (badge.type) {
    case 'buttons':
      keysWithin(badge, ['type', 'text', 'buttons'], 'buttons');
      text(badge.text, 1000, 'buttons.text');
      buttons(badge.buttons, 'buttons', true);
      break;
    case 'quick_replies':
      keysWithin(badge, ['type', 'text', 'replies'], 'quick_replies');
      text(badge.text, 1000, 'quick_replies.text');
      buttons(badge.replies, 'replies', true);
      break;
    case 'card':
      keysWithin(badge, ['type', 'card'], 'card');
      card(badge.card, 'card', true);
      break;
    case 'carousel':
      keysWithin(badge, ['type', 'text', 'cards'], 'carousel');
      text(badge.text, 1000, 'carousel.text');
      check(badge.cards.length > 0 && badge.cards.length <= 20, 'carousel: bad count');
      badge.cards.forEach((c, i) => card(c, `cards[${i}]`, true));
      break;
    case 'list':
      keysWithin(badge, ['type', 'text', 'items'], 'list');
      text(badge.text, 1000, 'list.text');
      check(badge.items.length > 0 && badge.items.length <= 50, 'list: bad count');
      badge.items.forEach((item, i) => card(item, `items[${i}]`, false));
      break;
    case 'image':
      keysWithin(badge, ['type', 'url', 'alt', 'caption'], 'image');
      check(badge.url !== undefined, 'image: no url');
      url(badge.url, 'image.url', true);
      text(badge.alt, 200, 'image.alt');
      text(badge.caption, 1000, 'image.caption');
      break;
    case 'file':
      keysWithin(badge, ['type', 'url', 'name', 'size', 'mimeType'], 'file');
      check(badge.url !== undefined, 'file: no url');
      url(badge.url, 'file.url', true);
      text(badge.name, 200, 'file.name', false);
      check(badge.size === undefined || (Number.isSafeInteger(badge.size) && badge.size >= 0), 'file: bad size');
      text(badge.mimeType, 100, 'file.mimeType');
      break;
    case 'unsupported':
      keysWithin(badge, ['type', 'summary'], 'unsupported');
      text(badge.summary, 300, 'summary', false);
      check(!badge.summary.includes('{"'), 'summary: contains {"');
      break;
    default:
      found.push(`unknown type ${(badge as { type: unknown }).type}`);
  }
  return found;
}

describe('the badge checker used below', () => {
  it('finds the faults it is meant to find', () => {
    const faulty: Badge[] = [
      { type: 'buttons', buttons: [] },
      { type: 'buttons', buttons: [{ label: 'x', action: 'link', value: 'javascript:alert(1)' }] },
      { type: 'card', card: { title: '{"a":1}', buttons: [] } },
      { type: 'image', url: 'mailto:a@example.com' },
      { type: 'unsupported', summary: 'see {"a"' },
      { type: 'list', items: [{ title: '' }] },
      { type: 'nope' } as unknown as Badge,
    ];
    for (const badge of faulty) expect(problems(badge), JSON.stringify(badge)).not.toEqual([]);
    expect(problems({ type: 'buttons', buttons: [{ label: 'x', action: 'link', value: 'https://example.com/' }] })).toEqual([]);
  });
});

describe('parseBadge on any input', () => {
  it('never throws and always yields a valid badge for arbitrary JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(problems(parseBadge(value))).toEqual([]);
        expect(problems(parseBadge(JSON.stringify(value)))).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('never throws and always yields a valid badge for anything at all', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withBigInt: true, withDate: true, withMap: true, withSet: true }), (value) => {
        expect(problems(parseBadge(value))).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('yields a valid badge for badge-ish JSON with hostile strings in every place', () => {
    const hostile = fc.oneof(
      fc.constantFrom('javascript:alert(1)', ' JaVaScRiPt:x', 'java\tscript:x', '//evil.com', 'data:text/html,x', '{"a":1}', '[{"b":2}]', '"{\\"c\\":3}"'),
      fc.webUrl(),
      fc.string(),
    );
    const key = fc.constantFrom('type', 'kind', 'title', 'text', 'label', 'url', 'payload', 'value', 'image', 'src', 'subtitle', 'name', 'buttons', 'items', 'cards', 'quickReplies', 'elements', 'attachment', 'payload');
    const value = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, hostile, fc.array(tie('node'), { maxLength: 4 }), fc.dictionary(key, tie('node'), { maxKeys: 5 })),
    })).node;
    fc.assert(
      fc.property(value, (v) => {
        expect(problems(parseBadge(v))).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseMessageText on any string', () => {
  const strings = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.jsonValue().map((v) => JSON.stringify(JSON.stringify(v))),
    fc.jsonValue().map((v) => ` \n${JSON.stringify(v, null, 2)}\t`),
  );

  it('never throws and never returns JSON as text', () => {
    fc.assert(
      fc.property(strings, (message) => {
        const result = parseMessageText(message);
        expect(result.text !== undefined || result.badge !== undefined).toBe(true);
        if (result.text !== undefined) expect(isRawJson(result.text), result.text).toBe(false);
        if (result.badge !== undefined) expect(problems(result.badge)).toEqual([]);
        if (isRawJson(message)) expect(result.text).not.toBe(message);
      }),
      { numRuns: 2000 },
    );
  });

  it('returns a message that is not JSON unchanged', () => {
    fc.assert(
      fc.property(fc.string(), (message) => {
        fc.pre(!/^\s*[[{"]/.test(message));
        expect(parseMessageText(message)).toEqual({ text: message });
      }),
    );
  });
});

describe('safeUrl on any string', () => {
  it('returns only normalised http, https or mailto URLs without whitespace, and is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string().map((s) => `https://${s}`)), (value) => {
        const url = safeUrl(value);
        if (url === undefined) return;
        expect(url).toMatch(/^(https?:\/\/|mailto:)/);
        expect(url).not.toMatch(/[\s\u0000-\u001f\u007f\\]/);
        expect(safeUrl(url)).toBe(url);
      }),
      { numRuns: 2000 },
    );
  });

  it('accepts web URLs', () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true, withFragments: true }), (value) => {
        expect(safeUrl(value)).toBeDefined();
      }),
    );
  });

  it('rejects script schemes however they are disguised', () => {
    const disguise = fc
      .tuple(
        fc.constantFrom('javascript', 'vbscript', 'data'),
        fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }),
        fc.constantFrom('', ' ', '\t', '\n', '\u0000', '\u200b', '\u00a0'),
        fc.nat(9),
      )
      .map(([scheme, upper, junk, at]) => {
        const cased = [...scheme].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('');
        return `${junk}${cased.slice(0, at)}${junk}${cased.slice(at)}:alert(1)`;
      });
    fc.assert(
      fc.property(disguise, (value) => {
        expect(safeUrl(value)).toBeUndefined();
        expect(parseBadge({ buttons: [{ title: 'x', url: value }] }).type).toBe('unsupported');
      }),
    );
  });
});

// Badge-like objects written in random spellings, to check that valid input is recognised.
const label = fc.stringMatching(/^[A-Za-z0-9](?:[A-Za-z0-9 ,.!?'-]{0,28}[A-Za-z0-9.!?])?$/);
const httpLink = fc.webUrl();
const imageLink = fc.tuple(fc.domain(), fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom('png', 'jpg', 'gif', 'webp')).map(([d, n, e]) => `https://${d}/${n}.${e}`);
const optionalType = (names: string[]) => fc.option(fc.tuple(fc.constantFrom('type', 'kind', 'template_type', 'contentType'), fc.constantFrom(...names)), { nil: undefined });

function withType(obj: Record<string, unknown>, typed: [string, string] | undefined): Record<string, unknown> {
  return typed === undefined ? obj : { [typed[0]]: typed[1], ...obj };
}

const button = fc.oneof(
  label,
  fc.record({ labelKey: fc.constantFrom('title', 'label', 'text', 'name'), valueKey: fc.constantFrom('payload', 'value'), label, value: label }).map((b) => ({ [b.labelKey]: b.label, [b.valueKey]: b.value })),
  fc.record({ labelKey: fc.constantFrom('title', 'label', 'text'), linkKey: fc.constantFrom('url', 'link', 'href'), label, url: httpLink }).map((b) => ({ [b.labelKey]: b.label, [b.linkKey]: b.url })),
);
const buttonList = fc.array(button, { minLength: 1, maxLength: 5 });
const card = fc
  .record({
    title: label,
    subtitleKey: fc.constantFrom('subtitle', 'description'),
    subtitle: label,
    imageKey: fc.constantFrom('image', 'imageUrl', 'image_url', 'src', 'picture', 'thumbnail'),
    image: imageLink,
    buttons: fc.option(buttonList, { nil: undefined }),
  })
  .map((c) => ({ title: c.title, [c.subtitleKey]: c.subtitle, [c.imageKey]: c.image, ...(c.buttons ? { buttons: c.buttons } : {}) }));

const families: Record<Badge['type'], fc.Arbitrary<unknown>> = {
  buttons: fc
    .record({ typed: optionalType(['buttons', 'button', 'Buttons', 'button_template', 'BUTTON']), listKey: fc.constantFrom('buttons', 'options', 'choices', 'actions'), text: fc.option(label, { nil: undefined }), list: buttonList })
    .map((b) => withType({ ...(b.text ? { text: b.text } : {}), [b.listKey]: b.list }, b.typed)),
  quick_replies: fc.oneof(
    fc
      .record({ typed: fc.tuple(fc.constantFrom('type', 'kind'), fc.constantFrom('quick_replies', 'quickReplies', 'quick-replies', 'quickreply', 'Quick Replies', 'chips')), listKey: fc.constantFrom('quick_replies', 'quickReplies', 'options', 'buttons', 'choices', 'replies'), list: buttonList })
      .map((b) => withType({ [b.listKey]: b.list }, b.typed)),
    fc.record({ listKey: fc.constantFrom('quickReplies', 'quick_replies', 'replies', 'suggestions', 'chips'), list: buttonList }).map((b) => ({ [b.listKey]: b.list })),
  ),
  card: fc.record({ typed: optionalType(['card', 'Card', 'hero_card', 'basic-card']), card }).map((c) => withType(c.card, c.typed)),
  carousel: fc
    .record({ typed: optionalType(['carousel', 'Carousel', 'gallery', 'cards']), listKey: fc.constantFrom('cards', 'elements', 'gallery', 'carousel', 'items'), cards: fc.array(card, { minLength: 2, maxLength: 5 }) })
    .map((c) => withType({ [c.listKey]: c.cards }, c.typed)),
  list: fc.oneof(
    fc
      .record({ typed: fc.tuple(fc.constantFrom('type', 'kind'), fc.constantFrom('list', 'List', 'list_template', 'listView')), listKey: fc.constantFrom('items', 'elements', 'rows', 'entries'), items: fc.array(fc.oneof(label, fc.record({ title: label, subtitle: label })), { minLength: 1, maxLength: 8 }) })
      .map((l) => withType({ [l.listKey]: l.items }, l.typed)),
    fc.record({ listKey: fc.constantFrom('items', 'rows', 'entries'), items: fc.array(fc.record({ title: label, description: label }), { minLength: 1, maxLength: 8 }) }).map((l) => ({ [l.listKey]: l.items })),
  ),
  image: fc.oneof(
    fc.record({ typed: fc.tuple(fc.constantFrom('type', 'kind'), fc.constantFrom('image', 'Image', 'picture', 'photo', 'img')), urlKey: fc.constantFrom('url', 'src', 'image', 'imageUrl', 'image_url'), url: fc.oneof(httpLink, imageLink), alt: fc.option(label, { nil: undefined }) }).map((i) => withType({ [i.urlKey]: i.url, ...(i.alt ? { alt: i.alt } : {}) }, i.typed)),
    fc.record({ urlKey: fc.constantFrom('url', 'src', 'image', 'imageUrl', 'image_url'), url: imageLink }).map((i) => ({ [i.urlKey]: i.url })),
  ),
  file: fc.oneof(
    fc.record({ typed: fc.tuple(fc.constantFrom('type', 'kind'), fc.constantFrom('file', 'File', 'document', 'attachment', 'pdf')), urlKey: fc.constantFrom('url', 'fileUrl', 'file_url', 'href', 'downloadUrl'), url: httpLink, nameKey: fc.constantFrom('name', 'filename', 'fileName', 'title'), name: label }).map((f) => withType({ [f.urlKey]: f.url, [f.nameKey]: f.name }, f.typed)),
    fc.record({ urlKey: fc.constantFrom('fileUrl', 'file_url', 'downloadUrl'), url: httpLink }).map((f) => ({ [f.urlKey]: f.url })),
  ),
  unsupported: fc.constant({}),
};

// The same element as it may arrive: bare, in an envelope, or as (double-encoded) JSON text.
const envelope = <T,>(inner: fc.Arbitrary<T>) =>
  fc.tuple(inner, fc.constantFrom('bare', 'payload', 'attachment', 'data', 'json', 'json2')).map(([value, how]) => {
    if (how === 'bare') return value;
    if (how === 'json') return JSON.stringify(value);
    if (how === 'json2') return JSON.stringify(JSON.stringify(value));
    return { [how]: value };
  });

describe('parseBadge recognises badges in any of the accepted spellings', () => {
  for (const type of ['buttons', 'quick_replies', 'card', 'carousel', 'list', 'image', 'file'] as const) {
    it(`recognises ${type}`, () => {
      fc.assert(
        fc.property(envelope(families[type]), (raw) => {
          const badge = parseBadge(raw);
          expect(badge.type, JSON.stringify(raw)).toBe(type);
          expect(problems(badge)).toEqual([]);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('keeps every valid button, with its label', () => {
    fc.assert(
      fc.property(buttonList, (list) => {
        const badge = parseBadge({ type: 'buttons', buttons: list });
        if (badge.type !== 'buttons') throw new Error(`not buttons: ${badge.type}`);
        const labels = list.map((b) => (typeof b === 'string' ? b : String(Object.values(b)[0])).replace(/\s+/g, ' '));
        expect(badge.buttons.map((b) => b.label)).toEqual(labels);
      }),
    );
  });
});
