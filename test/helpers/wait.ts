import { vi } from 'vitest';

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
  if (left < needMs) await sleep(left + 50);
}
