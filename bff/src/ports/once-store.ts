/** Remembers keys for a while; used to make refresh tokens single-use. */
export interface OnceStore {
  /** True the first time `key` is claimed within `ttlMs`; false on every later claim. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** True while `key` is claimed (within the TTL of its claim). */
  has(key: string): Promise<boolean>;
}
