/**
 * Text helpers for the badge parser: clean and bound human-readable strings,
 * and tell raw JSON apart from prose so that JSON is never shown as text.
 */

/** Bound for labels, titles, names and alt texts. */
export const LABEL_MAX = 200;
/** Bound for longer texts: intros, subtitles, captions, postback values. */
export const TEXT_MAX = 1000;
/** Bound for plain-text summaries. */
export const SUMMARY_MAX = 300;

// Controls other than tab/newline/CR, zero-width and bidi-override characters (text spoofing).
const INVISIBLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** Cuts `text` to at most `max` UTF-16 units without splitting a surrogate pair; a cut ends in `…`. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end).trimEnd()}…`;
}

/** Parses `text` as JSON when it holds an object or array, also when double-encoded as a JSON string. */
export function decodeJson(text: string): object | undefined {
  const trimmed = text.trim();
  const first = trimmed[0];
  if (first !== '{' && first !== '[' && first !== '"') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (typeof value === 'string') return decodeJson(value);
  return typeof value === 'object' && value !== null ? value : undefined;
}

// Starts of text that are JSON even when cut off or malformed: `{"`, `{}`, `[{`, `["`, `[[`, `[]`.
const JSON_START = /^(?:\{\s*["}]|\[\s*[[{"\]])/;

/** True when `text` is (or starts like) a JSON object or array, possibly double-encoded. */
export function looksLikeJson(text: string): boolean {
  const trimmed = text.trim();
  return JSON_START.test(trimmed) || decodeJson(trimmed) !== undefined;
}

function asString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** One line of plain text (whitespace collapsed, invisible characters removed), bounded; undefined when empty or JSON. */
export function cleanLine(value: unknown, max = LABEL_MAX): string | undefined {
  const raw = asString(value);
  if (raw === undefined) return undefined;
  const line = raw.replace(INVISIBLE, '').replace(/\s+/g, ' ').trim();
  return line === '' || looksLikeJson(line) ? undefined : truncate(line, max);
}

/** Plain text that keeps its line breaks, bounded; undefined when empty or JSON. */
export function cleanText(value: unknown, max = TEXT_MAX): string | undefined {
  const raw = asString(value);
  if (raw === undefined) return undefined;
  const text = raw
    .replace(/\r\n?/g, '\n')
    .replace(INVISIBLE, '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return text === '' || looksLikeJson(text) ? undefined : truncate(text, max);
}

// Fields whose string values a person wrote for a person to read.
const READABLE_KEYS = new Set([
  'title', 'text', 'label', 'name', 'subtitle', 'description', 'caption', 'message', 'header',
  'heading', 'alt', 'altText', 'alt_text', 'prompt', 'question', 'body', 'content', 'displayText',
  'display_text', 'filename', 'fileName', 'file_name',
]);

const LINK_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** A short plain-text summary of any value: its human-readable strings, deduplicated and bounded, or undefined. */
export function collectSummary(raw: unknown): string | undefined {
  const parts: string[] = [];
  let length = 0;
  let budget = 300; // nodes visited, so a huge or deep value costs little

  const add = (value: unknown): void => {
    const line = cleanLine(value, SUMMARY_MAX);
    if (line === undefined || line.includes('{"') || LINK_LIKE.test(line) || parts.includes(line)) return;
    parts.push(line);
    length += line.length + 3;
  };
  const visit = (value: unknown, depth: number): void => {
    if (budget-- <= 0 || depth > 8 || length >= SUMMARY_MAX) return;
    if (Array.isArray(value)) {
      for (const item of value) {
        if (typeof item === 'string') add(item);
        else visit(item, depth + 1);
      }
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (typeof item === 'string') {
          if (READABLE_KEYS.has(key)) add(item);
        } else {
          visit(item, depth + 1);
        }
      }
    }
  };

  if (typeof raw === 'string') add(raw);
  else visit(raw, 0);
  return parts.length > 0 ? truncate(parts.join(' · '), SUMMARY_MAX) : undefined;
}
