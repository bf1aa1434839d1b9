import { UNSAFE_IN_LINE_CLASS } from './free-text.js';

/**
 * The file name rule, shared by the BFF (`POST /api/upload` and flows refuse a name that breaks it)
 * and the widget (which sends a picked file under a name that keeps it). A name reaches the service
 * and the operator as it is, so it keeps the free-text rule for one line (shared/free-text.ts: no
 * control characters, no direction overrides or isolates, which show "gpj.exe" as "exe.jpg") and
 * holds no path separators.
 */
export const FILE_NAME_MAX = 255;

const UNSAFE = new RegExp(`[${UNSAFE_IN_LINE_CLASS}/\\\\]`, 'gu');

/** True when `name` holds something the rule refuses. */
export function hasUnsafeFileNameChars(name: string): boolean {
  return name.search(UNSAFE) !== -1; // search, unlike test, ignores the global regex's lastIndex
}

/** `name` without what the rule refuses ("file" when nothing is left), cut to the longest name taken, keeping its extension. */
export function safeFileName(name: string): string {
  const kept = name.replace(UNSAFE, '') || 'file';
  if (kept.length <= FILE_NAME_MAX) return kept;
  const extension = /\.[^.]{1,16}$/.exec(kept)?.[0] ?? '';
  return kept.slice(0, FILE_NAME_MAX - extension.length) + extension;
}
