import { createHash } from 'node:crypto';
import type { AppDeps } from '../context.js';
import { AppError } from '../errors.js';

/** How long a start may run before a repeat may make it again (its server gone mid-way). */
const RUNNING_MS = 2 * 60_000;
/** How long a repeat waits for a try still running, and how often it looks. */
const WAIT_MS = 10_000;
const POLL_MS = 100;
/** How long a repeat gets the conversation a start made: longer than an outbox waits out a lost connection. */
const DONE_MS = 60 * 60_000;

/** What a start made: the conversation, and `state: 'escalated'` when it went to a person as it started (as the answer says it). */
export interface Started {
  conversationId: string;
  state?: 'escalated';
  /** The token chain its tokens belong to, a repeat's too: revoking the chain ends them all. */
  chainId?: string;
}

/**
 * Whether a repeat may still have what a start made: false once the conversation went on under a
 * sign-in or its tokens were revoked, else replaying the anonymous start would undo both.
 */
export type StillOpen = (started: Started) => Promise<boolean>;

/** What a start's record is kept under: the browser's key, and the page, user and text it was made for. */
export interface StartKey {
  startKey: string;
  origin: string | undefined;
  /** The signed-in user starting it, if any. */
  userId?: string;
  text: string;
}

/** The key of a start whose body carried a `startKey`, else none (every start is new). */
export function startKeyOf(body: { startKey?: string | undefined; text: string }, origin: string | undefined, userId?: string): StartKey | undefined {
  return body.startKey === undefined ? undefined : { startKey: body.startKey, origin, userId, text: body.text };
}

/**
 * Runs `start` once per start key (docs/design-choices.md, "A conversation started twice"): a
 * browser whose answer was lost starts again with the same `startKey`, and gets the conversation
 * the first try made instead of a second one at the service (signed in or not). A repeat while
 * the first still runs waits for it (up to `WAIT_MS`, then `409 start_in_progress`, Retry-After: 1);
 * one after a failed try starts again. The record is kept under a hash of the key with the page's
 * origin, the user and the text, so a key works only for the start it was made for and is never
 * stored as it came.
 */
export async function startOnce(
  deps: Pick<AppDeps, 'starts' | 'logger'>,
  key: StartKey | undefined,
  start: () => Promise<Started>,
  stillOpen: StillOpen = async () => true,
): Promise<Started> {
  if (key === undefined) return start();
  const record = createHash('sha256').update(`${key.origin ?? ''}\n${key.userId ?? ''}\n${key.startKey}\n${key.text}`).digest('base64url');
  // A repeat while the first try runs (its answer lost mid-way, the browser quick to try again)
  // waits for it: most starts take a second or two.
  const waitUntil = Date.now() + WAIT_MS;
  let held = await deps.starts.begin(record, RUNNING_MS);
  while (held.status === 'running' && Date.now() < waitUntil) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    held = await deps.starts.begin(record, RUNNING_MS);
  }
  if (held.status === 'done') {
    const started = decode(held.value);
    if (await stillOpen(started)) return started;
    // Ended for the rest of its time, so no later repeat asks again (nor starts a second conversation).
    await deps.starts.end(record, DONE_MS);
    throw ended();
  }
  if (held.status === 'ended') throw ended();
  if (held.status === 'running') throw new AppError('start_in_progress', 'This conversation is still being started; try again in a moment', { retryAfterSec: 1 });
  let started: Started;
  try {
    started = await start();
  } catch (err) {
    await deps.starts.abandon(record).catch(() => {}); // else a repeat waits out RUNNING_MS
    throw err;
  }
  try {
    await deps.starts.finish(record, encode(started), DONE_MS);
  } catch (err) {
    // The conversation is made and the browser gets it now; only a lost answer would start another.
    deps.logger.warn('start not recorded; a repeat of it would start another conversation', { conversationId: started.conversationId, error: String(err) });
  }
  return started;
}

function ended(): AppError {
  return new AppError('start_ended', 'This conversation went on after a sign-in or its session was ended; start a new one');
}

/** A record's value: the conversation id, then `escalated` and `chain:<id>` when they apply (records from before chains have none). */
function encode(started: Started): string {
  return [started.conversationId, started.state, started.chainId && `chain:${started.chainId}`].filter(Boolean).join(' ');
}

function decode(value: string): Started {
  const [conversationId, ...words] = value.split(' ');
  const chain = words.find((w) => w.startsWith('chain:'));
  return {
    conversationId: conversationId!,
    ...(words.includes('escalated') && { state: 'escalated' as const }),
    ...(chain && { chainId: chain.slice('chain:'.length) }),
  };
}
