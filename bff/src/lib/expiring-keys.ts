/**
 * Keys remembered until they expire, at most `maxKeys` of them (oldest dropped first), in O(1)
 * amortised per call. A Map alone is not enough: dropping its oldest entries again and again
 * leaves holes that V8 skips on every walk from the front (measured: ~22 µs per insert at 100k
 * keys, a third of a webhook's cost), so the insertion order lives in a queue of its own.
 */
export class ExpiringKeys {
  private readonly until = new Map<string, number>();
  // The queue as two arrays, not one of [key, until] pairs: no pair object per key, and the times
  // stay unboxed numbers, so each add leaves less for the GC to copy and trace.
  private keys: string[] = [];
  private untils: number[] = [];
  private head = 0;

  constructor(private readonly maxKeys: number) {}

  /** True when `key` was added and has not expired at `now`. */
  has(key: string, now: number): boolean {
    const until = this.until.get(key);
    return until !== undefined && until > now;
  }

  /** Remembers `key` until `until` (a later add of the same key replaces the time). */
  add(key: string, until: number, now: number): void {
    this.until.set(key, until);
    this.keys.push(key);
    this.untils.push(until);
    this.expire(now);
  }

  /** Drops keys expired at `now`, and the oldest while there are more than `maxKeys`. */
  expire(now: number): void {
    while (this.head < this.keys.length) {
      const key = this.keys[this.head]!;
      const until = this.untils[this.head]!;
      if (until > now && this.until.size <= this.maxKeys) break;
      // A key added again since has a newer entry further back: leave it to that one.
      if (this.until.get(key) === until) this.until.delete(key);
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.keys.length) {
      this.keys = this.keys.slice(this.head);
      this.untils = this.untils.slice(this.head);
      this.head = 0;
    }
  }

  get size(): number {
    return this.until.size;
  }
}
