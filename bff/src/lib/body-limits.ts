// What a request body may be: its size caps, the stall and deadline limits a read enforces, and
// what becomes of the rest of a refused body.
import type { IncomingMessage } from 'node:http';
import { AppError, PayloadTooLargeError } from '../errors.js';
import { bodyWatch } from './body-watch.js';

/** What reading a body may do besides the size cap (docs/api.md "Request bodies"). */
export interface BodyLimits {
  /** Cut the request when no byte arrives for this long (a stalled client must not hold anything). */
  idleMs?: number;
  /** Cut the request when its body is not complete this long after reading began (webhooks). */
  totalMs?: number;
  /** Called with each chunk's size before it is kept; false refuses the request (429 busy). */
  take?: (bytes: number) => boolean;
}

/** After a refusal (413, 429) the rest of a body is discarded, not kept, for at most this long; then the connection closes. */
const DISCARD_MS = 2_000;

export const tooLarge = (maxBytes: number) => new PayloadTooLargeError(`Body is larger than ${maxBytes} bytes`);
export const busy = () => new AppError('rate_limited', 'Too many uploads at once; try again in a moment', { retryAfterSec: 5 });

/**
 * Throws away what is left of a refused body, so the answer can still reach the client on its
 * connection, but keeps none of it and gives it `DISCARD_MS` at most: a client that goes on
 * sending past that loses its connection.
 */
export function discardRest(incoming: IncomingMessage): void {
  if (incoming.complete) return;
  const watched = bodyWatch.watch(incoming, { totalMs: DISCARD_MS }, () => {});
  const done = () => watched.done();
  incoming.once('end', done).once('close', done);
  incoming.resume();
}

/** The largest JSON body a widget route takes (flow variables: `MAX_FLOW_JSON_BYTES`). */
export const MAX_JSON_BYTES = 16 * 1024;
export const MAX_FLOW_JSON_BYTES = 64 * 1024;
