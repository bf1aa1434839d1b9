/**
 * The rule for free text that goes to the service, the operator or other tabs (names, comments,
 * variable values; file names add path separators to it): no control characters and no direction
 * overrides or isolates. A control character can end a header line or a log line where the text is
 * written ("Eve\r\nX-Injected: 1"); an override shows "gnp.exe" as "exe.png" and runs on into what
 * follows it. Text that breaks the rule is refused (`400`), never cleaned quietly, so what the
 * visitor typed and what the team reads are the same. Multi-line fields keep line breaks and tabs.
 */
const DIRECTION = '\\u202A-\\u202E\\u2066-\\u2069';

/** What one line (a name) may not hold, as the inside of a regular expression's character class (`u` flag). */
export const UNSAFE_IN_LINE_CLASS = `\\p{Cc}${DIRECTION}`;
const UNSAFE_IN_LINE = new RegExp(`[${UNSAFE_IN_LINE_CLASS}]`, 'u');
/** Text with lines (a comment, a variable's value): the same, but `\n`, `\r` and tabs are kept. */
const UNSAFE_IN_TEXT = new RegExp(`[\\0-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F-\\x9F${DIRECTION}]`, 'u');

/** True when `line` holds a character the rule refuses in one line. */
export function isSafeLine(line: string): boolean {
  return !UNSAFE_IN_LINE.test(line);
}

/** True when `text` holds a character the rule refuses in text with lines. */
export function isSafeText(text: string): boolean {
  return !UNSAFE_IN_TEXT.test(text);
}

/** What an error says the rule is, after the field's name. */
export const FREE_TEXT_RULE = 'may not hold control characters or direction overrides';
