/** The icon paths only the parts chunk's components draw (Icon.tsx draws them; its own paths are the chat's). */
export const PREV = 'M15 18l-6-6 6-6';
export const NEXT = 'M9 18l6-6-6-6';
/** A document (a file to send or sent), not a download. */
export const DOC = 'M14 3H6v18h12V7zM14 3v4h4M9 12h6M9 16h6';
export const FILE = 'M14 3H6v18h12V7zM14 3v4h4M12 11v6M9 14l3 3 3-3';
