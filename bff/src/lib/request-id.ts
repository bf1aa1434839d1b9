import { randomBytes } from 'node:crypto';

/**
 * New request ids: UUIDv7 (RFC 9562 §5.7). 48 bits of Unix time in ms, then a 12-bit counter
 * within the millisecond (rand_a, the "fixed-length dedicated counter" of §6.2) and 62 bits drawn
 * once per process (rand_b). Ids sort by time, differ between instances, and cost two string
 * joins: `crypto.randomUUID` formats 16 fresh random bytes per call, which showed in the
 * webhook's profile (docs/benchmarks.md). When a millisecond's 4,096 ids are used up, or the clock
 * steps back, the time field runs ahead of the clock (§6.2), so ids never repeat in a process.
 */
export function newRequestId(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    counter = 0;
    timePart = timeHex(now);
  } else if (++counter > MAX_COUNTER) {
    lastMs++;
    counter = 0;
    timePart = timeHex(lastMs);
  }
  return timePart + COUNTER_HEX[counter]! + processPart;
}

const MAX_COUNTER = 0xfff;
/** "000" to "fff", made once. */
const COUNTER_HEX = Array.from({ length: MAX_COUNTER + 1 }, (_, n) => n.toString(16).padStart(3, '0'));

let lastMs = -1;
let counter = 0;
let timePart = '';

/** "tttttttt-tttt-7": the time field, its dash and the version digit. */
function timeHex(ms: number): string {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7`;
}

/** "-vrrr-rrrrrrrrrrrr": rand_b with the variant bits (10) on top, drawn when the process starts. */
const processPart = (() => {
  const bytes = randomBytes(8);
  bytes[0] = (bytes[0]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `-${hex.slice(0, 4)}-${hex.slice(4)}`;
})();
