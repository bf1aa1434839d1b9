/**
 * The badge parser shared by the BFF and the widget. The service's badge JSON is
 * not documented (docs/api.md, `Message`), so this accepts the common spellings of chat-platform
 * rich elements and turns them into one validated `Badge`; anything it cannot
 * read becomes `unsupported` with a plain-text summary. JSON is never shown raw.
 */
import { isRecord } from './records.js';
import {
  BUTTON_LIST_KEYS, CARD_LIST_KEYS, FILE_ONLY_KEYS, IMAGE_KEYS, INTRO_KEYS, ITEM_LIST_KEYS, LINK_KEYS,
  REPLY_LIST_KEYS, TITLE_KEYS, TYPE_KEYS, VALUE_KEYS, WRAPPER_KEYS, type Rec,
  firstLine, firstLineEntry, firstList, firstListEntry, firstText, get, hasAny, pick, token,
} from './badge-fields.js';
import {
  type Badge, type Family, type Parsed, UNSUPPORTED_SUMMARY, familyOf, readFamily, withText,
} from './badge-kinds.js';
import {
  BUTTON_TYPE_KEYS, LINK_TYPES, MAIL_TYPES, POSTBACK_TYPES, areQuickReplies, hasImage, isButtonLike, parseButtons,
  parseCards, parseListItems,
} from './badge-parts.js';
import { cleanLine, cleanText, collectSummary, decodeJson, looksLikeJson } from './badge-text.js';
import { looksLikeImageUrl, safeUrl } from './badge-url.js';

export { safeUrl } from './badge-url.js';
export { UNSUPPORTED_SUMMARY, summarizeBadge } from './badge-kinds.js';

const MAX_DEPTH = 6;
const MESSAGE_TEXT_MAX = 4000;

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

function parseRecord(obj: Rec, depth: number): Parsed | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const unwrapped = unwrap(obj, depth);
  if (unwrapped !== undefined) return unwrapped;
  const family = familyOf(obj);
  const typed = family === undefined ? undefined : readFamily(family, obj);
  if (typed !== undefined) return typed;
  // An unknown type name still lets the structure speak, but a bare title no longer makes a card.
  const inferred = inferFamily(obj, family === undefined && !hasAny(obj, TYPE_KEYS));
  const shaped = inferred === undefined || inferred === family ? undefined : readFamily(inferred, obj);
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

// Item types that mark an array entry as a button (singular: the plural names a container of buttons).
// `text`/`message` are left out: `{"type":"text","text":"Hi"}` is a text element unless it also carries a value.
const BUTTON_ITEM_TYPES = new Set(
  [...LINK_TYPES, ...MAIL_TYPES, ...POSTBACK_TYPES, 'option', 'choice', 'chip', 'suggestion'].filter(
    (type) => type !== 'text' && type !== 'message',
  ),
);
const BUTTON_VALUE_KEYS = [...LINK_KEYS, ...VALUE_KEYS.filter((key) => key !== 'text' && key !== 'message')];

/**
 * True for an array entry that is a button: a label plus a value, a link or a button type
 * (`{"text":"Hi"}` alone is a text element, not a button).
 */
function isButtonElement(raw: unknown): boolean {
  if (typeof raw === 'string' || typeof raw === 'number') return cleanLine(raw) !== undefined;
  if (!isRecord(raw) || !isButtonLike(raw)) return false;
  const family = familyOf(raw);
  if (family !== undefined && family !== 'text' && family !== 'buttons' && family !== 'quick_replies') return false;
  const type = token(pick(raw, BUTTON_TYPE_KEYS));
  return (
    (type !== undefined && BUTTON_ITEM_TYPES.has(type)) ||
    pick(raw, BUTTON_VALUE_KEYS) !== undefined ||
    isRecord(get(raw, 'action')) ||
    firstLineEntry(raw, ['title', 'label', 'caption', 'displayText', 'display_text']) !== undefined
  );
}
