/**
 * The spellings the badge parser accepts for each field and each badge kind, and
 * readers that take values out of untrusted objects without trusting their shape.
 */
import { cleanLine, cleanText } from './badge-text.js';
import { isRecord, type Rec } from './records.js';
import { httpUrl } from './badge-url.js';

export type { Rec };

export const TYPE_KEYS = [
  'type', 'kind', 'template_type', 'templateType', 'contentType', 'content_type', 'badgeType', 'badge_type',
  'messageType', 'message_type',
] as const;
export const REPLY_LIST_KEYS = [
  'quickReplies', 'quick_replies', 'quickreplies', 'replies', 'suggestions', 'chips', 'suggestedActions',
  'suggested_actions',
] as const;
export const BUTTON_LIST_KEYS = ['buttons', 'options', 'choices', 'actions', ...REPLY_LIST_KEYS] as const;
export const CARD_LIST_KEYS = ['cards', 'elements', 'gallery', 'carousel', 'slides'] as const;
export const ITEM_LIST_KEYS = ['items', 'list', 'rows', 'entries'] as const;
export const LABEL_KEYS = ['title', 'label', 'text', 'name', 'caption', 'displayText', 'display_text'] as const;
export const TITLE_KEYS = ['title', 'header', 'heading', 'name', 'label', 'text'] as const;
export const SUBTITLE_KEYS = [
  'subtitle', 'subTitle', 'sub_title', 'description', 'desc', 'caption', 'body', 'text', 'message',
] as const;
export const INTRO_KEYS = ['text', 'message', 'prompt', 'question', 'title', 'header', 'heading', 'content', 'body'] as const;
export const LINK_KEYS = ['url', 'link', 'href', 'uri', 'web_url', 'webUrl', 'openUrl'] as const;
export const VALUE_KEYS = ['payload', 'value', 'postback', 'data', 'reply', 'message', 'text', 'query', 'command'] as const;
export const IMAGE_KEYS = [
  'imageUrl', 'image_url', 'image', 'img', 'src', 'picture', 'photo', 'thumbnail', 'thumbnailUrl', 'thumbnail_url',
  'images', 'imageUri', 'image_uri', 'media',
] as const;
export const FILE_URL_KEYS = [
  'url', 'fileUrl', 'file_url', 'downloadUrl', 'download_url', 'contentUrl', 'content_url', 'href', 'link', 'uri',
  'src', 'file',
] as const;
export const FILE_NAME_KEYS = ['name', 'filename', 'fileName', 'file_name', 'title', 'label', 'text'] as const;
/** Keys that only a file has: their presence makes an untyped object a file. */
export const FILE_ONLY_KEYS = [
  'fileUrl', 'file_url', 'downloadUrl', 'download_url', 'filename', 'fileName', 'file_name', 'mimeType', 'mime_type',
  'mimetype', 'fileSize', 'file_size', 'file',
] as const;
export const MIME_KEYS = ['mimeType', 'mime_type', 'mimetype', 'mime', 'contentType', 'content_type', 'fileType', 'file_type'] as const;
export const SIZE_KEYS = ['size', 'fileSize', 'file_size', 'bytes', 'sizeBytes', 'size_bytes'] as const;
export const ALT_KEYS = ['alt', 'altText', 'alt_text', 'title', 'name', 'label'] as const;
export const CAPTION_KEYS = ['caption', 'text', 'subtitle', 'description', 'message'] as const;
/** Envelopes around the real element (Messenger `attachment.payload`, Bot Framework `content`, Dialogflow `richContent`...). */
export const WRAPPER_KEYS = [
  'attachment', 'attachments', 'badge', 'richContent', 'rich_content', 'payload', 'content', 'data', 'template',
  'message', 'body',
] as const;

/** Lower-case letters and digits only: `Quick-Replies`, `quick_replies` and `quickReplies` all read `quickreplies`. */
export function token(value: unknown): string | undefined {
  return typeof value === 'string' ? value.toLowerCase().replace(/[^a-z0-9]/g, '') : undefined;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** An own property only: `constructor` or `__proto__` never leak in from the prototype. */
export function get(obj: Rec, key: string): unknown {
  return hasOwn.call(obj, key) ? obj[key] : undefined;
}

/** The first value under `keys` that is neither undefined, null nor an empty string. */
export function pick(obj: Rec, keys: readonly string[]): unknown {
  for (const key of keys) {
    const value = get(obj, key);
    if (value !== undefined && value !== null && value !== '') return value;
  }
  return undefined;
}

/** True when any of `keys` holds a value. */
export function hasAny(obj: Rec, keys: readonly string[]): boolean {
  return pick(obj, keys) !== undefined;
}

/** The first key among `keys` whose value cleans to a non-empty line, with that line. */
export function firstLineEntry(obj: Rec, keys: readonly string[], max?: number): [string, string] | undefined {
  for (const key of keys) {
    const line = cleanLine(get(obj, key), max);
    if (line !== undefined) return [key, line];
  }
  return undefined;
}

/** The first value under `keys` that cleans to a non-empty line. */
export function firstLine(obj: Rec, keys: readonly string[], max?: number): string | undefined {
  return firstLineEntry(obj, keys, max)?.[1];
}

/** The first value under `keys` that cleans to non-empty text (line breaks kept). */
export function firstText(obj: Rec, keys: readonly string[], max?: number): string | undefined {
  for (const key of keys) {
    const text = cleanText(get(obj, key), max);
    if (text !== undefined) return text;
  }
  return undefined;
}

/** The first non-empty array under `keys` (a `{actions|buttons|options: [...]}` object counts), with its key. */
export function firstListEntry(obj: Rec, keys: readonly string[]): [string, unknown[]] | undefined {
  for (const key of keys) {
    const value = get(obj, key);
    if (Array.isArray(value) && value.length > 0) return [key, value];
    if (isRecord(value)) {
      const inner = pick(value, ['actions', 'buttons', 'options', 'items', 'choices']);
      if (Array.isArray(inner) && inner.length > 0) return [key, inner];
    }
  }
  return undefined;
}

/** The first non-empty array under `keys`. */
export function firstList(obj: Rec, keys: readonly string[]): unknown[] | undefined {
  return firstListEntry(obj, keys)?.[1];
}

/** An http(s) URL from a string, a `{url|src|href}` object or the first usable entry of an array. */
export function httpUrlIn(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return httpUrl(value);
  if (depth > 2) return undefined;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, 5)) {
      const url = httpUrlIn(item, depth + 1);
      if (url !== undefined) return url;
    }
  } else if (isRecord(value)) {
    return firstHttpUrl(value, ['url', 'src', 'href', 'uri', 'imageUrl', 'image_url', 'contentUrl', 'link'], depth + 1);
  }
  return undefined;
}

/** The first http(s) URL found under `keys`. */
export function firstHttpUrl(obj: Rec, keys: readonly string[], depth = 0): string | undefined {
  for (const key of keys) {
    const url = httpUrlIn(get(obj, key), depth);
    if (url !== undefined) return url;
  }
  return undefined;
}
