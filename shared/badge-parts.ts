/**
 * The parts badges are made of: buttons, cards and list items, each parsed from
 * any of the accepted spellings, validated, and bounded in number.
 */
import { isRecord } from './records.js';
import type { BadgeButton, BadgeCard, BadgeListItem } from './types.js';
import {
  BUTTON_LIST_KEYS, IMAGE_KEYS, LABEL_KEYS, LINK_KEYS, SUBTITLE_KEYS, TITLE_KEYS, VALUE_KEYS,
  firstHttpUrl, firstLineEntry, firstList, firstText, get, pick, token, type Rec,
} from './badge-fields.js';
import { TEXT_MAX, cleanLine } from './badge-text.js';
import { isDangerousLink, safeUrl } from './badge-url.js';

export const MAX_BUTTONS = 20;
export const MAX_CARDS = 20;
export const MAX_LIST_ITEMS = 50;

// Button type names (as `token()` spells them) that open a link, or that cannot be offered in a web chat.
export const LINK_TYPES = new Set([
  'url', 'link', 'weburl', 'openurl', 'uri', 'href', 'web', 'external', 'externallink', 'browse', 'navigate',
  'hyperlink', 'openlink', 'website',
]);
export const MAIL_TYPES = new Set(['email', 'mail', 'mailto']);
export const POSTBACK_TYPES = new Set([
  'postback', 'imback', 'messageback', 'message', 'reply', 'quickreply', 'text', 'payload', 'button', 'action',
]);
const UNUSABLE_TYPES = new Set([
  'phonenumber', 'phone', 'call', 'tel', 'share', 'elementshare', 'accountlink', 'accountunlink', 'location',
  'camera', 'cameraroll', 'datetimepicker', 'signin', 'login', 'logout', 'payment', 'buy',
]);
export const BUTTON_TYPE_KEYS = ['type', 'kind', 'action_type', 'actionType'] as const;

function link(label: string, raw: unknown): BadgeButton | undefined {
  const url = safeUrl(raw);
  return url === undefined ? undefined : { label, action: 'link', value: url };
}

// What a postback sends as the user's message: a scalar as text, an object's payload/value/text. Never JSON.
function postbackValue(raw: unknown): string | undefined {
  if (typeof raw === 'boolean') return String(raw);
  if (isRecord(raw)) return cleanLine(pick(raw, ['payload', 'value', 'text', 'title', 'label', 'id']), TEXT_MAX);
  return cleanLine(raw, TEXT_MAX);
}

/** One button from a string or an object; undefined when it has no label or its link is not safe. */
export function parseButton(raw: unknown): BadgeButton | undefined {
  if (typeof raw === 'string' || typeof raw === 'number') {
    const label = cleanLine(raw);
    if (label === undefined) return undefined;
    const url = safeUrl(raw);
    if (url !== undefined) return { label, action: 'link', value: url };
    return typeof raw === 'string' && isDangerousLink(raw) ? undefined : { label, action: 'postback', value: label };
  }
  if (!isRecord(raw)) return undefined;
  // LINE and Bot Framework nest the behaviour in `action`: its fields win.
  const nested = get(raw, 'action');
  const obj: Rec = isRecord(nested) ? { ...raw, ...nested } : raw;
  const type = token(pick(obj, BUTTON_TYPE_KEYS));
  if (type !== undefined && UNUSABLE_TYPES.has(type)) return undefined;
  const labelEntry = firstLineEntry(obj, LABEL_KEYS);
  if (labelEntry === undefined) return undefined;
  const [labelKey, label] = labelEntry;
  const linkRaw = pick(obj, LINK_KEYS);
  const valueRaw = pick(obj, VALUE_KEYS.filter((key) => key !== labelKey));
  const isPostbackType = type !== undefined && POSTBACK_TYPES.has(type);

  if (linkRaw !== undefined && !isPostbackType) return link(label, linkRaw);
  if (type !== undefined && LINK_TYPES.has(type)) return link(label, valueRaw);
  if (type !== undefined && MAIL_TYPES.has(type)) {
    const address = typeof valueRaw === 'string' ? valueRaw.trim().replace(/^mailto:/i, '') : undefined;
    return address ? link(label, `mailto:${address}`) : undefined;
  }
  if (typeof valueRaw === 'string') {
    const url = safeUrl(valueRaw);
    if (url !== undefined) return { label, action: 'link', value: url };
    if (!isPostbackType && isDangerousLink(valueRaw)) return undefined;
  }
  return { label, action: 'postback', value: postbackValue(valueRaw) ?? label };
}

/** The valid buttons of a list, at most `MAX_BUTTONS`. */
export function parseButtons(list: readonly unknown[] | undefined): BadgeButton[] {
  const buttons: BadgeButton[] = [];
  for (const raw of list ?? []) {
    const button = parseButton(raw);
    if (button !== undefined) buttons.push(button);
    if (buttons.length === MAX_BUTTONS) break;
  }
  return buttons;
}

/** True for an object that reads as a button rather than a card: a label and no image, subtitle or buttons of its own. */
export function isButtonLike(raw: unknown): boolean {
  if (typeof raw === 'string' || typeof raw === 'number') return cleanLine(raw) !== undefined;
  if (!isRecord(raw)) return false;
  if (pick(raw, [...IMAGE_KEYS, ...BUTTON_LIST_KEYS, 'subtitle', 'subTitle', 'sub_title', 'description']) !== undefined) {
    return false;
  }
  return firstLineEntry(raw, LABEL_KEYS) !== undefined;
}

const QUICK_ITEM_TYPES = new Set(['quickreply', 'chip', 'suggestion']);

/** True when button entries read as quick replies (Messenger's `content_type`, or a quick-reply/chip item type). */
export function areQuickReplies(list: readonly unknown[]): boolean {
  return list.every(
    (raw) =>
      isRecord(raw) &&
      (get(raw, 'content_type') !== undefined || QUICK_ITEM_TYPES.has(token(pick(raw, BUTTON_TYPE_KEYS)) ?? '')),
  );
}

/** True for an object with an image of its own. */
export function hasImage(raw: unknown): boolean {
  return isRecord(raw) && firstHttpUrl(raw, IMAGE_KEYS) !== undefined;
}

// The link a card opens when tapped: its own URL, or Messenger's `default_action` / Bot Framework's `tap`.
function tapUrl(obj: Rec): string | undefined {
  const own = safeUrl(pick(obj, LINK_KEYS));
  if (own !== undefined) return own;
  const tap = pick(obj, ['default_action', 'defaultAction', 'tap', 'onClick', 'on_click']);
  return isRecord(tap) ? safeUrl(pick(tap, [...LINK_KEYS, 'value'])) : undefined;
}

interface Common {
  title: string;
  subtitle?: string;
  imageUrl?: string;
  url?: string;
  buttons: BadgeButton[];
}

// Fields cards and list items share; undefined when there is neither a title nor an image.
function parseCommon(raw: unknown): Common | undefined {
  if (!isRecord(raw)) return undefined;
  const content = get(raw, 'content');
  const obj: Rec = isRecord(content) && firstLineEntry(raw, TITLE_KEYS) === undefined ? { ...raw, ...content } : raw;
  const titleEntry = firstLineEntry(obj, TITLE_KEYS);
  let title = titleEntry?.[1];
  let subtitle = firstText(obj, SUBTITLE_KEYS.filter((key) => key !== titleEntry?.[0]), TEXT_MAX);
  if (subtitle === title) subtitle = undefined;
  const imageUrl = firstHttpUrl(obj, IMAGE_KEYS);
  if (title === undefined && subtitle !== undefined) {
    title = cleanLine(subtitle);
    subtitle = undefined;
  }
  if (title === undefined && imageUrl === undefined) return undefined;
  const common: Common = { title: title ?? '', buttons: parseButtons(firstList(obj, BUTTON_LIST_KEYS)) };
  if (subtitle !== undefined) common.subtitle = subtitle;
  if (imageUrl !== undefined) common.imageUrl = imageUrl;
  const url = tapUrl(obj);
  if (url !== undefined) common.url = url;
  return common;
}

/** One card; undefined without a title or an image. */
export function parseCard(raw: unknown): BadgeCard | undefined {
  return parseCommon(raw);
}

/** The valid cards of a list, at most `MAX_CARDS`. */
export function parseCards(list: readonly unknown[] | undefined): BadgeCard[] {
  const cards: BadgeCard[] = [];
  for (const raw of list ?? []) {
    const card = parseCard(raw);
    if (card !== undefined) cards.push(card);
    if (cards.length === MAX_CARDS) break;
  }
  return cards;
}

/** One list item from a string or an object; undefined without a title. */
export function parseListItem(raw: unknown): BadgeListItem | undefined {
  if (typeof raw === 'string' || typeof raw === 'number') {
    const title = cleanLine(raw);
    return title === undefined ? undefined : { title };
  }
  const common = parseCommon(raw);
  if (common === undefined || common.title === '') return undefined;
  const { buttons, ...item } = common;
  return buttons.length > 0 ? { ...item, buttons } : item;
}

/** The valid items of a list, at most `MAX_LIST_ITEMS`. */
export function parseListItems(list: readonly unknown[] | undefined): BadgeListItem[] {
  const items: BadgeListItem[] = [];
  for (const raw of list ?? []) {
    const item = parseListItem(raw);
    if (item !== undefined) items.push(item);
    if (items.length === MAX_LIST_ITEMS) break;
  }
  return items;
}
