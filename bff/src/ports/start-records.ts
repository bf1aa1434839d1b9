/**
 * What a conversation start carrying a `startKey` became (`POST /api/session`, docs/api.md): a browser
 * whose answer was lost starts again under the same key and gets the conversation the first start
 * made, not a second one at the service with the same first message. Adapters throw
 * `StoreUnavailableError` when their backing store cannot be reached.
 */
export interface StartRecords {
  /**
   * Claims `key` for a start that runs now, for at most `runningMs` (a start that never finishes,
   * its server gone, frees it then). `claimed` the first time; then `running` until `finish` or
   * `abandon`, and after `finish` what it was given.
   */
  begin(key: string, runningMs: number): Promise<{ status: 'claimed' | 'running' } | { status: 'done'; value: string }>;
  /** The start under `key` is done: later `begin`s get `value` (non-empty) for `ttlMs`. */
  finish(key: string, value: string, ttlMs: number): Promise<void>;
  /** The start under `key` failed: the next `begin` claims it again. */
  abandon(key: string): Promise<void>;
}
