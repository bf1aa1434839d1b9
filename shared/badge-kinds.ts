/**
 * The badge kinds, one entry each: its fields (the `Badge` union) and what the parser (badge.ts)
 * knows of it: the type names the service may give it, how to read one, its plain-text summary and
 * a sample element. `BADGE_KINDS` is typed over the union, so a kind added to the union and not
 * here fails to compile; every other list of kinds (the parser's type names, the widget's
 * renderers, the demo's examples, docs/api.md's table) comes from the union or is checked against it.
 */
import {
  BUTTON_LIST_KEYS, CARD_LIST_KEYS, INTRO_KEYS, ITEM_LIST_KEYS, REPLY_LIST_KEYS, TYPE_KEYS, type Rec,
  firstList, firstText, get, token,
} from './badge-fields.js';
import { parseFile, parseImage } from './badge-media.js';
import { parseButtons, parseCard, parseCards, parseListItems } from './badge-parts.js';
import { SUMMARY_MAX, cleanLine, truncate } from './badge-text.js';
import type { BadgeButton, BadgeCard, BadgeListItem } from './types.js';

/** The parsed, validated form of a rich element. Every URL in it is http, https or mailto. */
export type Badge =
  | { type: 'buttons'; text?: string; buttons: BadgeButton[] }
  | { type: 'quick_replies'; text?: string; replies: BadgeButton[] }
  | { type: 'card'; card: BadgeCard }
  | { type: 'carousel'; text?: string; cards: BadgeCard[] }
  | { type: 'list'; text?: string; items: BadgeListItem[] }
  | { type: 'image'; url: string; alt?: string; caption?: string }
  | { type: 'file'; url: string; name: string; size?: number; mimeType?: string }
  | { type: 'unsupported'; summary: string };

export type BadgeType = Badge['type'];

/** The badge of kind `K`. */
export type BadgeOf<K extends BadgeType> = Extract<Badge, { type: K }>;

/** What one element yields: a badge, text around it, or both. */
export interface Parsed {
  badge?: Badge;
  text?: string;
}

/** Summary of an element that holds nothing readable. */
export const UNSUPPORTED_SUMMARY = 'Unsupported content';

/** The kinds a type name can name: every kind but `unsupported`, which is what the parser makes of the rest. */
export type NamedKind = Exclude<BadgeType, 'unsupported'>;

interface Kind<K extends BadgeType> {
  /** The type names that point at it, space-separated, as `token()` spells them (`Quick-Replies` reads `quickreplies`). */
  names: K extends NamedKind ? string : '';
  /** Reads one from an object whose type names it (or whose shape says it); undefined when it holds none. */
  read: K extends NamedKind ? (obj: Rec) => Parsed | undefined : undefined;
  /** Whether it has a `text` slot for the words before it (a message's intro goes there rather than beside it). */
  lead: 'text' extends keyof BadgeOf<K> ? true : false;
  /** Its plain-text summary (for notifications, previews and fallbacks): its words, or its kind's word when it has none. */
  summary: (badge: BadgeOf<K>) => string;
  /** An element the service may send that reads as this kind (badge.test.ts reads each back; the demo can send it). */
  sample: object;
}

const join = (parts: (string | undefined)[], or: string): string => {
  const text = parts.filter((part): part is string => part !== undefined && part !== '').join(' · ');
  return text === '' ? or : truncate(text, SUMMARY_MAX);
};
const intro = (obj: Rec): string | undefined => firstText(obj, INTRO_KEYS);

/** A reader's badge with the element's own intro text put in its slot, or beside it. */
const introduced = (obj: Rec, badge: Badge): Parsed => withText({ badge }, intro(obj));

function buttonsOf(obj: Rec, quick: boolean): Parsed | undefined {
  const keys = quick ? [...REPLY_LIST_KEYS, ...BUTTON_LIST_KEYS] : BUTTON_LIST_KEYS;
  const buttons = parseButtons(firstList(obj, [...keys, ...ITEM_LIST_KEYS, ...CARD_LIST_KEYS]));
  if (buttons.length === 0) return undefined;
  return introduced(obj, quick ? { type: 'quick_replies', replies: buttons } : { type: 'buttons', buttons });
}

/**
 * A card, a carousel, or (for a `generic` template) whichever its cards make: one card alone is a
 * card unless the type says carousel; a card type with no list of cards is one card.
 */
export function cardsOf(obj: Rec, family: 'card' | 'carousel' | 'generic'): Parsed | undefined {
  const list = firstList(obj, [...CARD_LIST_KEYS, ...ITEM_LIST_KEYS]);
  const cards = list === undefined ? [] : parseCards(list);
  if (cards.length === 0) return family === 'carousel' ? undefined : cardOf(obj);
  const [only] = cards;
  if (only !== undefined && cards.length === 1 && family !== 'carousel') return introduced(obj, { type: 'card', card: only });
  return introduced(obj, { type: 'carousel', cards });
}

function cardOf(obj: Rec): Parsed | undefined {
  const card = parseCard(obj);
  if (card === undefined) return undefined;
  const text = firstText(obj, ['text', 'message']);
  const used = text === undefined || text === card.title || text === card.subtitle || cleanLine(text) === card.title;
  return withText({ badge: { type: 'card', card } }, used ? undefined : text);
}

const labels = (list: readonly { label: string }[]) => join(list.map((b) => b.label), '');
const titles = (list: readonly { title: string }[]) => join(list.map((c) => c.title), '');

export const BADGE_KINDS: { [K in BadgeType]: Kind<K> } = {
  buttons: {
    names: 'buttons button buttontemplate buttonlist actions choice choices options option menu',
    read: (obj) => buttonsOf(obj, false),
    lead: true,
    summary: (b) => join([b.text ?? labels(b.buttons)], 'Options'),
    sample: { type: 'buttons', text: 'What can I help you with?', buttons: [{ title: 'Track my order', payload: 'Where is my order?' }] },
  },
  quick_replies: {
    names: 'quickreplies quickreply quickreplys quick replies suggestions suggestion suggestedactions chips chip',
    read: (obj) => buttonsOf(obj, true),
    lead: true,
    summary: (b) => join([b.text ?? labels(b.replies)], 'Options'),
    sample: { type: 'quick_replies', text: 'Anything else?', quickReplies: ['Yes', 'No'] },
  },
  card: {
    names: 'card herocard hero thumbnailcard thumbnail basiccard richcard productcard product tile',
    read: (obj) => cardsOf(obj, 'card'),
    lead: false,
    summary: (b) => join([b.card.title, b.card.subtitle], 'Card'),
    sample: { type: 'card', title: 'Gift card', subtitle: 'From €10', buttons: [{ title: 'Buy', url: 'https://example.com/gift' }] },
  },
  carousel: {
    names: 'carousel gallery cards slider slides carouselcard browsecarousel',
    read: (obj) => cardsOf(obj, 'carousel'),
    lead: true,
    summary: (b) => join([b.text ?? titles(b.cards)], 'Cards'),
    sample: { type: 'carousel', cards: [{ title: 'Pack', imageUrl: 'https://example.com/pack.png' }, { title: 'Tent', imageUrl: 'https://example.com/tent.png' }] },
  },
  list: {
    names: 'list listtemplate listview listcard',
    read: (obj) => {
      const items = parseListItems(firstList(obj, [...ITEM_LIST_KEYS, ...CARD_LIST_KEYS, ...BUTTON_LIST_KEYS]));
      return items.length === 0 ? undefined : introduced(obj, { type: 'list', items });
    },
    lead: true,
    summary: (b) => join([b.text ?? titles(b.items)], 'List'),
    sample: { type: 'list', text: 'Day hikes:', items: [{ title: 'Lake loop', subtitle: '8 km' }, { title: 'Ridge walk', subtitle: '14 km' }] },
  },
  image: {
    names: 'image img picture photo gif sticker',
    read: (obj) => {
      const badge = parseImage(obj);
      return badge === undefined ? undefined : { badge };
    },
    lead: false,
    summary: (b) => join([b.caption ?? b.alt], 'Image'),
    sample: { type: 'image', url: 'https://example.com/map.png', alt: 'Trail map' },
  },
  file: {
    names: 'file document doc attachment pdf download video audio',
    read: (obj) => {
      const badge = parseFile(obj);
      return badge === undefined ? undefined : { badge };
    },
    lead: false,
    summary: (b) => join([b.name], 'File'),
    sample: { type: 'file', url: 'https://example.com/size-guide.pdf', name: 'Size guide.pdf', size: 48213 },
  },
  unsupported: {
    names: '',
    read: undefined,
    lead: false,
    summary: (b) => join([b.summary], UNSUPPORTED_SUMMARY),
    sample: { type: 'location', latitude: 48.2, longitude: 16.37, title: 'Our shop' },
  },
};

/** Every kind, in the order of `BADGE_KINDS`. */
export const BADGE_TYPES = Object.keys(BADGE_KINDS) as BadgeType[];

/** The kinds a type name can point at, plus `generic` (a card or a carousel) and `text` (no badge at all). */
export type Family = NamedKind | 'generic' | 'text';

const FAMILY_NAMES: ReadonlyMap<string, Family> = new Map<string, Family>(
  [
    ...BADGE_TYPES.map((kind) => [kind, BADGE_KINDS[kind].names] as const),
    ['generic', 'generic generictemplate'] as const,
    ['text', 'text message plain plaintext markdown'] as const,
  ].flatMap(([family, names]) => (names === '' ? [] : names.split(' ').map((name) => [name, family as Family] as const))),
);

/** The badge kind a type name points at, including MIME types and Bot Framework card content types. */
export function familyOfName(name: string): Family | undefined {
  const lower = name.trim().toLowerCase();
  const botFrameworkCard = /^application\/vnd\.microsoft\.card\.(hero|thumbnail)$/.exec(lower);
  if (botFrameworkCard) return 'card';
  if (lower.startsWith('application/vnd.')) return undefined;
  if (lower.startsWith('image/')) return 'image';
  if (/^[a-z]+\/[a-z0-9.+-]+$/.test(lower)) return 'file';
  return FAMILY_NAMES.get(token(lower) ?? '');
}

/** The badge kind named by the object's first recognised type field. */
export function familyOf(obj: Rec): Family | undefined {
  for (const key of TYPE_KEYS) {
    const value = get(obj, key);
    const family = typeof value === 'string' ? familyOfName(value) : undefined;
    if (family !== undefined) return family;
  }
  return undefined;
}

/** Reads an object as the family its type (or shape) names; `text` is no badge. */
export function readFamily(family: Family, obj: Rec): Parsed | undefined {
  if (family === 'text') return undefined;
  if (family === 'generic') return cardsOf(obj, 'generic');
  return BADGE_KINDS[family].read(obj);
}

/** A short plain-text rendering of a badge, for notifications, previews and fallbacks. */
export function summarizeBadge(badge: Badge): string {
  return (BADGE_KINDS[badge.type].summary as (b: Badge) => string)(badge);
}

/** Puts leading text into the badge when it has a slot for it and the slot is empty; else beside it. */
export function withText(parsed: Parsed, text: string | undefined): Parsed {
  if (text === undefined) return parsed;
  const badge = parsed.badge;
  if (badge === undefined) return { text: parsed.text === undefined ? text : `${text}\n\n${parsed.text}` };
  const slot = BADGE_KINDS[badge.type].lead ? (badge as { text?: string }).text : null;
  if (slot === undefined) return { ...parsed, badge: { ...badge, text } as Badge };
  if (slot === text) return parsed;
  return { ...parsed, text: parsed.text === undefined ? text : `${text}\n\n${parsed.text}` };
}
