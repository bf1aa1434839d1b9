import { vi } from 'vitest';
import type { EventStore } from '../../bff/src/ports/event-store.js';
import type { StoredEvent } from '../../shared/types.js';

/** Waiting in tests that talk to real processes: by condition, never by a guessed delay alone. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it holds, failing with `what` after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

let markers = 0;

/**
 * What a store's listener received before a marker event appended last of all: a listener gets a
 * conversation's events in order, so a duplicate of anything before the marker would have come
 * first. Instead of waiting a while to see that nothing more comes. `isMarker` tells the marker by
 * the event `append` returned (ids may start over after Redis lost its data).
 */
export async function beforeMarker<T>(store: EventStore, conversationId: string, received: T[], isMarker: (item: T, marker: StoredEvent) => boolean): Promise<T[]> {
  const result = await store.append(conversationId, { event: 'variables', data: { name: `marker-${++markers}` } });
  if (result.status !== 'stored') throw new Error('the marker was not stored');
  await until('the marker', () => received.some((item) => isMarker(item, result.event)));
  return received.slice(0, received.findIndex((item) => isMarker(item, result.event)));
}

/**
 * Stops the in-process clock (`Date`, not timers) at the start of the next minute, until
 * `vi.useRealTimers()`: rate limits count in fixed windows aligned to the minute, so a test that
 * needs several calls in one window gets it at once instead of waiting for the real clock.
 */
export function startOfAMinute(): void {
  const next = Math.ceil((Date.now() + 1) / 60_000) * 60_000;
  vi.useFakeTimers({ toFake: ['Date'], now: next });
}

/**
 * Waits until the current minute has at least `needMs` left (real clock): for the one test whose
 * identity tokens must be made with the real time (identity.test.ts). Keep `needMs` small.
 */
export async function roomInThisMinute(needMs: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  // Time is the subject: the real clock must reach the next minute, which nothing else shows.
  if (left < needMs) await sleep(left + 50);
}
