/** Remembers keys for a while; used to make refresh tokens single-use. */
export interface OnceStore {
  /** True the first time `key` is claimed within `ttlMs`; false on every later claim. */
  claim(key: string, ttlMs: number): Promise<boolean>;
}
