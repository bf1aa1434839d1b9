/**
 * Web Storage for the facts that survive a reload, read back by one parse. Storage may be
 * unavailable (private modes, a sandboxed frame, a full quota; even naming it can throw) or hold
 * junk: then nothing is kept, and what the page holds lasts as long as the page.
 */

/** `sessionStorage`: this tab's; `localStorage`: every tab's of the site. */
export type Area = 'sessionStorage' | 'localStorage';

/** The value stored under `key` (JSON), if any can be read. */
export function kept<T>(area: Area, key: string): T | undefined {
  try {
    const text = globalThis[area].getItem(key);
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    return undefined;
  }
}

/** Stores `value` under `key` as JSON, or removes the key for `undefined`; an unchanged value is not written again. */
export function keep(area: Area, key: string, value: unknown): void {
  try {
    const storage = globalThis[area];
    if (value === undefined) return storage.removeItem(key);
    const text = JSON.stringify(value);
    if (storage.getItem(key) !== text) storage.setItem(key, text);
  } catch {
    // storage unavailable: see above
  }
}
