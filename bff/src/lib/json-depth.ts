/**
 * Nesting allowed in JSON that the BFF takes from outside and stores. Service events nest a few
 * levels (a carousel of cards of buttons); far deeper bodies broke code that walks them (a stack
 * overflow, `500`) and Redis's Lua JSON (1000 levels, `503` for ever while the service retried).
 */
export const MAX_JSON_DEPTH = 32;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the JSON text in `bytes` nests objects and arrays at most `maxDepth` deep. One pass
 * over the bytes, before parsing, so nothing deeper is ever built; brackets inside strings do
 * not count. Does not check that the text is valid JSON (the parser does).
 */
export function jsonDepthWithin(bytes: Uint8Array, maxDepth = MAX_JSON_DEPTH): boolean {
  // No more opening brackets than the limit: nothing can nest deeper, and most bodies have a few.
  // Counted by Buffer's native search, about a quarter of the byte loop's time (docs/benchmarks.md).
  const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (openingsAtMost(buffer, maxDepth)) return true;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === BACKSLASH) i++;
      else if (b === QUOTE) inString = false;
    } else if (b === QUOTE) {
      inString = true;
    } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
      if (++depth > maxDepth) return false;
    } else if (b === CLOSE_BRACE || b === CLOSE_BRACKET) {
      depth--;
    }
  }
  return true;
}

/** True when `buffer` holds at most `max` opening brackets, `{` and `[` together, in strings or not. */
function openingsAtMost(buffer: Buffer, max: number): boolean {
  let n = 0;
  for (let i = buffer.indexOf(OPEN_BRACE); i !== -1; i = buffer.indexOf(OPEN_BRACE, i + 1)) if (++n > max) return false;
  for (let i = buffer.indexOf(OPEN_BRACKET); i !== -1; i = buffer.indexOf(OPEN_BRACKET, i + 1)) if (++n > max) return false;
  return true;
}
