/**
 * The badge parser shared by the BFF and the widget. The service's badge JSON is
 * not documented (docs/api.md, `Message`), so this accepts the common spellings of chat-platform
 * rich elements and turns them into one validated `Badge`; anything it cannot
 * read becomes `unsupported` with a plain-text summary. JSON is never shown raw.
 */
import { isRecord } from './records.js';
import type { Badge } from './types.js';
import {
  BUTTON_LIST_KEYS, CARD_LIST_KEYS, FILE_ONLY_KEYS, IMAGE_KEYS, INTRO_KEYS, ITEM_LIST_KEYS, LINK_KEYS,
  REPLY_LIST_KEYS, TITLE_KEYS, TYPE_KEYS, WRAPPER_KEYS, type Family, type Rec,
  familyOf, firstLine, firstList, firstListEntry, firstText, get, hasAny, pick,
} from './badge-fields.js';
import { parseFile, parseImage } from './badge-media.js';
import {
  areQuickReplies, hasImage, isButtonElement, isButtonLike, parseButtons, parseCard, parseCards, parseListItems,
} from './badge-parts.js';
import { SUMMARY_MAX, cleanLine, cleanText, collectSummary, decodeJson, looksLikeJson, truncate } from './badge-text.js';
import { looksLikeImageUrl, safeUrl } from './badge-url.js';

export { safeUrl } from './badge-url.js';

/** Summary of an element that holds nothing readable. */
export const UNSUPPORTED_SUMMARY = 'Unsupported content';

const MAX_DEPTH = 6;
const MESSAGE_TEXT_MAX = 4000;

// What one element yields: a badge, text around it, or both.
interface Parsed {
  badge?: Badge;
  text?: string;
}

/** Parses a rich element (an object, an array, or JSON text of either) into a validated badge; never throws. */
export function parseBadge(raw: unknown): Badge {
  return parseAny(raw, 0).badge ?? unsupported(raw);
}

/** Splits a message string into plain text or a badge: JSON objects and arrays (also double-encoded) are never text. */
export function parseMessageText(message: string): { text?: string; badge?: Badge } {
  const json = decodeJson(message);
  if (json === undefined) return looksLikeJson(message) ? { badge: unsupported(message) } : { text: message };
  const parsed = parseAny(json, 0);
  const result: { text?: string; badge?: Badge } = {};
  if (parsed.text !== undefined) result.text = parsed.text;
  if (parsed.badge !== undefined) result.badge = parsed.badge;
  else if (parsed.text === undefined) result.badge = unsupported(json);
  return result;
}

/** A short plain-text rendering of a badge, for notifications, previews and fallbacks. */
export function summarizeBadge(badge: Badge): string {
  const join = (parts: (string | undefined)[]): string | undefined => {
    const text = parts.filter((part): part is string => part !== undefined && part !== '').join(' · ');
    return text === '' ? undefined : truncate(text, SUMMARY_MAX);
  };
  switch (badge.type) {
    case 'buttons':
      return join([badge.text ?? join(badge.buttons.map((b) => b.label))]) ?? 'Options';
    case 'quick_replies':
      return join([badge.text ?? join(badge.replies.map((b) => b.label))]) ?? 'Options';
    case 'card':
      return join([badge.card.title, badge.card.subtitle]) ?? 'Card';
    case 'carousel':
      return join([badge.text ?? join(badge.cards.map((c) => c.title))]) ?? 'Cards';
    case 'list':
      return join([badge.text ?? join(badge.items.map((i) => i.title))]) ?? 'List';
    case 'image':
      return join([badge.caption ?? badge.alt]) ?? 'Image';
    case 'file':
      return join([badge.name]) ?? 'File';
    case 'unsupported':
      return join([badge.summary]) ?? UNSUPPORTED_SUMMARY;
  }
}

function unsupported(raw: unknown): Badge {
  return { type: 'unsupported', summary: collectSummary(raw) ?? UNSUPPORTED_SUMMARY };
}

function parseAny(raw: unknown, depth: number): Parsed {
  if (depth > MAX_DEPTH) return {};
  if (typeof raw === 'string') {
    const json = decodeJson(raw);
    return json === undefined ? {} : parseAny(json, depth + 1);
  }
  if (Array.isArray(raw)) return parseArray(raw, depth) ?? {};
  if (isRecord(raw)) return parseRecord(raw, depth) ?? {};
  return {};
}

// Puts leading text into the badge when it has a slot for it and the slot is empty; else beside it.
function withText(parsed: Parsed, text: string | undefined): Parsed {
  if (text === undefined) return parsed;
  const badge = parsed.badge;
  if (badge === undefined) return { text: parsed.text === undefined ? text : `${text}\n\n${parsed.text}` };
  const hasSlot = badge.type === 'buttons' || badge.type === 'quick_replies' || badge.type === 'carousel' || badge.type === 'list';
  if (hasSlot && badge.text === undefined) return { ...parsed, badge: { ...badge, text } };
  if (hasSlot && badge.text === text) return parsed;
  return { ...parsed, text: parsed.text === undefined ? text : `${text}\n\n${parsed.text}` };
}

function parseRecord(obj: Rec, depth: number): Parsed | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const unwrapped = unwrap(obj, depth);
  if (unwrapped !== undefined) return unwrapped;
  const family = familyOf(obj);
  const typed = family === undefined ? undefined : parseFamily(family, obj);
  if (typed !== undefined) return typed;
  // An unknown type name still lets the structure speak, but a bare title no longer makes a card.
  const inferred = inferFamily(obj, family === undefined && !hasAny(obj, TYPE_KEYS));
  const shaped = inferred === undefined || inferred === family ? undefined : parseFamily(inferred, obj);
  if (shaped !== undefined) return shaped;
  // A text-only element (`{"type":"text","text":"Hi"}`, `{"message":"Hi"}`) is just text.
  if (family === 'text' || (family === undefined && inferred === undefined)) {
    const text = firstText(obj, ['text', 'message', 'content', 'body'], MESSAGE_TEXT_MAX);
    if (text !== undefined) return { text };
  }
  return undefined;
}

// Keys whose presence means the object is the element itself, not an envelope around it.
const CONTENT_KEYS = [
  ...BUTTON_LIST_KEYS, ...CARD_LIST_KEYS, ...ITEM_LIST_KEYS, ...IMAGE_KEYS, ...FILE_ONLY_KEYS, ...LINK_KEYS,
  'title', 'subtitle',
];
const ENVELOPE_TYPES = new Set(['template', 'attachment', 'richcontent', 'custom', 'payload', 'rich']);

// Messenger `{attachment:{type,payload}}`, `{type:'image', payload:{url}}`, Bot Framework `{text, attachments}`...
function unwrap(obj: Rec, depth: number): Parsed | undefined {
  if (hasAny(obj, CONTENT_KEYS)) return undefined;
  const intro = firstText(obj, INTRO_KEYS);
  for (const key of WRAPPER_KEYS) {
    let inner = get(obj, key);
    if (typeof inner === 'string') inner = decodeJson(inner);
    if (Array.isArray(inner) && inner.length > 0) {
      const parsed = parseArray(inner, depth + 1);
      if (parsed !== undefined) return withText(parsed, intro);
    } else if (isRecord(inner)) {
      const merged: Rec = { ...inner };
      const outerType = pick(obj, TYPE_KEYS);
      const outerTypeName = typeof outerType === 'string' ? outerType.toLowerCase().replace(/[^a-z]/g, '') : '';
      if (!hasAny(inner, TYPE_KEYS) && outerTypeName !== '' && !ENVELOPE_TYPES.has(outerTypeName)) merged.type = outerType;
      const parsed = parseRecord(merged, depth + 1);
      if (parsed !== undefined) return withText(parsed, intro === firstText(inner, INTRO_KEYS) ? undefined : intro);
    }
  }
  return undefined;
}

function inferFamily(obj: Rec, untyped: boolean): Family | undefined {
  if (firstList(obj, REPLY_LIST_KEYS) !== undefined) return 'quick_replies';
  const cardList = firstListEntry(obj, [...CARD_LIST_KEYS, ...ITEM_LIST_KEYS]);
  if (cardList !== undefined) return classifyList(cardList[1], (ITEM_LIST_KEYS as readonly string[]).includes(cardList[0]));
  if (firstList(obj, BUTTON_LIST_KEYS) !== undefined) {
    return hasImage(obj) || hasAny(obj, ['subtitle', 'subTitle', 'sub_title', 'description']) ? 'card' : 'buttons';
  }
  if (hasAny(obj, FILE_ONLY_KEYS)) return 'file';
  const hasTitle = firstLine(obj, ['title', 'header', 'heading']) !== undefined;
  if (hasImage(obj)) return hasTitle && hasAny(obj, ['subtitle', 'description', ...LINK_KEYS]) ? 'card' : 'image';
  const url = safeUrl(pick(obj, LINK_KEYS));
  if (url !== undefined && looksLikeImageUrl(url)) return 'image';
  if (!untyped) return undefined;
  if (url !== undefined) return hasTitle ? 'card' : 'file';
  return hasTitle ? 'card' : undefined;
}

// A list of buttons, of cards (for a carousel) or of rows (for a list)?
function classifyList(list: readonly unknown[], isItemList: boolean): Family {
  if (list.every(isButtonLike)) return 'buttons';
  if (!isItemList) return 'carousel';
  return list.every(hasImage) ? 'carousel' : 'list';
}

function parseFamily(family: Family, obj: Rec): Parsed | undefined {
  const intro = (): string | undefined => firstText(obj, INTRO_KEYS);
  switch (family) {
    case 'buttons':
    case 'quick_replies': {
      const keys = family === 'quick_replies' ? [...REPLY_LIST_KEYS, ...BUTTON_LIST_KEYS] : BUTTON_LIST_KEYS;
      const buttons = parseButtons(firstList(obj, [...keys, ...ITEM_LIST_KEYS, ...CARD_LIST_KEYS]));
      if (buttons.length === 0) return undefined;
      const badge: Badge = family === 'buttons' ? { type: 'buttons', buttons } : { type: 'quick_replies', replies: buttons };
      return withText({ badge }, intro());
    }
    case 'card':
    case 'generic':
    case 'carousel': {
      const list = firstList(obj, [...CARD_LIST_KEYS, ...ITEM_LIST_KEYS]);
      const cards = list === undefined ? [] : parseCards(list);
      if (cards.length === 0) return family === 'carousel' ? undefined : cardOf(obj);
      const [only] = cards;
      if (only !== undefined && cards.length === 1 && family !== 'carousel') return withText({ badge: { type: 'card', card: only } }, intro());
      return withText({ badge: { type: 'carousel', cards } }, intro());
    }
    case 'list': {
      const items = parseListItems(firstList(obj, [...ITEM_LIST_KEYS, ...CARD_LIST_KEYS, ...BUTTON_LIST_KEYS]));
      return items.length === 0 ? undefined : withText({ badge: { type: 'list', items } }, intro());
    }
    case 'image':
    case 'file': {
      const badge = family === 'image' ? parseImage(obj) : parseFile(obj);
      return badge === undefined ? undefined : { badge };
    }
    case 'text':
      return undefined;
  }
}

function cardOf(obj: Rec): Parsed | undefined {
  const card = parseCard(obj);
  if (card === undefined) return undefined;
  const text = firstText(obj, ['text', 'message']);
  const used = text === undefined || text === card.title || text === card.subtitle || cleanLine(text) === card.title;
  return withText({ badge: { type: 'card', card } }, used ? undefined : text);
}

// An array: options (strings), buttons, cards, list rows, or a sequence of elements.
function parseArray(raw: readonly unknown[], depth: number): Parsed | undefined {
  if (depth > MAX_DEPTH) return undefined;
  // Dialogflow's `richContent` is an array of arrays: read it as one sequence.
  const list = raw.slice(0, 100).flatMap((item) => (Array.isArray(item) ? item.slice(0, 100) : [item]));
  if (list.length === 0) return undefined;
  if (list.every((item) => typeof item === 'string' || typeof item === 'number')) {
    const replies = parseButtons(list);
    return replies.length === 0 ? undefined : { badge: { type: 'quick_replies', replies } };
  }
  if (list.every(isButtonElement)) return buttonsOf(list);
  if (list.every(isCardElement)) {
    if (list.every(hasImage)) {
      const cards = parseCards(list);
      const [only] = cards;
      if (only !== undefined) return { badge: cards.length === 1 ? { type: 'card', card: only } : { type: 'carousel', cards } };
    }
    const items = parseListItems(list);
    if (items.length > 0) return { badge: { type: 'list', items } };
  }
  return parseSequence(list, depth);
}

// An untyped (or card-typed) object that is not just a text: a card or a list row.
function isCardElement(item: unknown): boolean {
  if (!isRecord(item) || (familyOf(item) ?? 'card') !== 'card') return false;
  return hasAny(item, CONTENT_KEYS) || firstLine(item, TITLE_KEYS.filter((key) => key !== 'text')) !== undefined;
}

function buttonsOf(list: readonly unknown[]): Parsed | undefined {
  const buttons = parseButtons(list);
  if (buttons.length === 0) return undefined;
  return { badge: areQuickReplies(list) ? { type: 'quick_replies', replies: buttons } : { type: 'buttons', buttons } };
}

// Several elements in one message: the first badge that parses (or the buttons among them),
// with the texts of the other elements as its text.
function parseSequence(list: readonly unknown[], depth: number): Parsed | undefined {
  const texts: string[] = [];
  const buttonItems: unknown[] = [];
  let found: Parsed | undefined;
  for (const item of list) {
    if (isRecord(item) && isButtonElement(item)) {
      buttonItems.push(item);
      continue;
    }
    const parsed = typeof item === 'string' && decodeJson(item) === undefined ? { text: cleanText(item) } : parseAny(item, depth + 1);
    if (parsed.badge !== undefined && found === undefined) found = { badge: parsed.badge };
    if (parsed.text !== undefined) texts.push(parsed.text);
  }
  found ??= buttonItems.length > 0 ? buttonsOf(buttonItems) : undefined;
  const text = texts.length === 0 ? undefined : cleanText(texts.join('\n\n'), MESSAGE_TEXT_MAX);
  if (found === undefined) return text === undefined ? undefined : { text };
  return withText(found, text);
}
