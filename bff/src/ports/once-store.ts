/** Remembers keys for a while; used to make refresh tokens single-use. */
export interface OnceStore {
  /** True the first time `key` is claimed within `ttlMs`; false on every later claim. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** True while `key` is claimed or marked (within the TTL given last). */
  has(key: string): Promise<boolean>;
  /** Sets `key` to expire in `ttlMs` from now, whether it was there or not (a later mark replaces an earlier one). */
  mark(key: string, ttlMs: number): Promise<void>;
}
