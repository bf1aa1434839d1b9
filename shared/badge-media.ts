/**
 * Image and file badges: an http(s) URL plus whatever describes it (alt text,
 * caption, name, size, MIME type), read from any of the accepted spellings.
 */
import { isRecord } from './records.js';
import type { Badge } from './badge-kinds.js';
import {
  ALT_KEYS, CAPTION_KEYS, FILE_NAME_KEYS, FILE_URL_KEYS, IMAGE_KEYS, MIME_KEYS, SIZE_KEYS, type Rec,
  firstHttpUrl, firstLine, firstText, get, pick,
} from './badge-fields.js';
import { cleanLine } from './badge-text.js';
import { fileNameFromUrl } from './badge-url.js';

const IMAGE_URL_KEYS = ['url', ...IMAGE_KEYS, 'contentUrl', 'content_url', 'href', 'link', 'uri'];
const MIME_TYPE = /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/;

/** An image badge; undefined without an http(s) URL. */
export function parseImage(obj: Rec): Badge | undefined {
  const url = firstHttpUrl(obj, IMAGE_URL_KEYS);
  if (url === undefined) return undefined;
  const badge: Badge = { type: 'image', url };
  const alt = firstLine(obj, ALT_KEYS);
  const caption = firstText(obj, CAPTION_KEYS);
  if (alt !== undefined) badge.alt = alt;
  if (caption !== undefined && caption !== alt) badge.caption = caption;
  return badge;
}

/** A file badge (a nested `file` object is read too); undefined without an http(s) URL. */
export function parseFile(obj: Rec): Badge | undefined {
  const nested = get(obj, 'file');
  const source: Rec = isRecord(nested) ? { ...obj, ...nested } : obj;
  const url = firstHttpUrl(source, FILE_URL_KEYS);
  if (url === undefined) return undefined;
  const name = firstLine(source, FILE_NAME_KEYS) ?? cleanLine(fileNameFromUrl(url)) ?? 'file';
  const badge: Badge = { type: 'file', url, name };
  const size = sizeOf(pick(source, SIZE_KEYS));
  if (size !== undefined) badge.size = size;
  const mime = pick(source, MIME_KEYS);
  const mimeType = typeof mime === 'string' ? mime.trim().toLowerCase() : '';
  if (mimeType.length <= 100 && MIME_TYPE.test(mimeType)) badge.mimeType = mimeType;
  return badge;
}

// Bytes as a whole number: a number, or a string of digits (`"1234"`, `"1234.0"`).
function sizeOf(raw: unknown): number | undefined {
  const numeric = typeof raw === 'number' || (typeof raw === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(raw));
  const size = numeric ? Math.round(Number(raw)) : Number.NaN;
  return Number.isSafeInteger(size) && size >= 0 ? size : undefined;
}
