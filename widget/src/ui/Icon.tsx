/**
 * Stroke icons (24×24 paths), hidden from assistive technology: their buttons carry the label. The
 * paths only parts of the parts chunk draw are in part-icons.ts, so the chat does not carry them.
 */
export const CHAT = 'M21 11.5a8.4 8.4 0 0 1-12.2 7.5L3 21l2-5.6A8.4 8.4 0 1 1 21 11.5z';
export const CLOSE = 'M18 6 6 18M6 6l12 12';
export const SEND = 'M4 12h15M13 6l6 6-6 6';
export const CLIP = 'M21 11l-9 9a6 6 0 0 1-8.5-8.5l9-9a4 4 0 0 1 5.7 5.7l-9 9a2 2 0 0 1-2.9-2.9l8.5-8.4';
/** Three dots: the menu of secondary actions. */
export const MORE = 'M5 12h.01M12 12h.01M19 12h.01';
export const LIST = 'M9 6h12M9 12h12M9 18h12M4 6h.01M4 12h.01M4 18h.01';
/** Thumbs up; thumbs down is the same turned over (CSS). */
export const THUMB = 'M7 10v11H3V10zM7 10l4-8a3 3 0 0 1 3 3v4h5.5a2 2 0 0 1 2 2.3l-1.4 8a2 2 0 0 1-2 1.7H7';

/** One icon from its path. */
export function Icon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={d} />
    </svg>
  );
}
