/**
 * What a conversation start carrying a `startKey` became (`POST /api/session`, docs/api.md): a browser
 * whose answer was lost starts again under the same key and gets the conversation the first start
 * made, not a second one at the service with the same first message. A rating (`POST /api/csat`)
 * is claimed the same way, under a key of its own, before it is written anywhere. Adapters throw
 * `StoreUnavailableError` when their backing store cannot be reached.
 */
export interface StartRecords {
  /**
   * Claims `key` for a start that runs now, for at most `runningMs` (a start that never finishes,
   * its server gone, frees it then). `claimed` the first time; then `running` until `finish` or
   * `abandon`, after `finish` what it was given, and after `end` `ended`.
   */
  begin(key: string, runningMs: number): Promise<StartRecord>;
  /** The start under `key` is done: later `begin`s get `value` (non-empty) for `ttlMs`, unless it was ended. */
  finish(key: string, value: string, ttlMs: number): Promise<void>;
  /** The start under `key` failed: the next `begin` claims it again. */
  abandon(key: string): Promise<void>;
  /**
   * The start under `key` may not be repeated (its conversation went on under a sign-in, or its
   * tokens were revoked): later `begin`s get `ended` for `ttlMs`, and neither a `finish` nor an
   * `abandon` that comes after it brings the record back.
   */
  end(key: string, ttlMs: number): Promise<void>;
}

/** What `begin` found under a key. */
export type StartRecord = { status: 'claimed' | 'running' | 'ended' } | { status: 'done'; value: string };
