/**
 * Keys remembered until they expire, at most `maxKeys` of them (oldest dropped first), in O(1)
 * amortised per call. A Map alone is not enough: dropping its oldest entries again and again
 * leaves holes that V8 skips on every walk from the front (measured: ~22 µs per insert at 100k
 * keys, a third of a webhook's cost), so the insertion order lives in a queue of its own.
 */
export class ExpiringKeys {
  private readonly until = new Map<string, number>();
  private readonly order = new ExpiryQueue();

  constructor(private readonly maxKeys: number) {}

  /** True when `key` was added and has not expired at `now`. */
  has(key: string, now: number): boolean {
    const until = this.until.get(key);
    return until !== undefined && until > now;
  }

  /** Remembers `key` until `until` (a later add of the same key replaces the time). */
  add(key: string, until: number, now: number): void {
    this.until.set(key, until);
    this.order.push(key, until);
    this.expire(now);
  }

  /** Forgets `key` now (its place in the queue is skipped when it comes up). */
  delete(key: string): void {
    this.until.delete(key);
  }

  /** Drops keys expired at `now`, and the oldest while there are more than `maxKeys`. */
  expire(now: number): void {
    for (let until = this.order.frontUntil(); until !== Infinity; until = this.order.frontUntil()) {
      if (until > now && this.until.size <= this.maxKeys) break;
      const key = this.order.shift();
      // A key added again since has a newer entry further back: leave it to that one.
      if (this.until.get(key) === until) this.until.delete(key);
    }
  }

  get size(): number {
    return this.until.size;
  }
}

/**
 * Keys in the order they came, each with its expiry time, oldest first: the queue of
 * `ExpiringKeys` and `ScopedKeys`. Two arrays side by side, not one of [key, until] pairs: no pair
 * object per key, and the times stay unboxed numbers, so each push leaves less for the GC to copy
 * and trace. The dropped front is cut off once it is most of the arrays.
 */
export class ExpiryQueue {
  private keys: string[] = [];
  private untils: number[] = [];
  private head = 0;

  push(key: string, until: number): void {
    this.keys.push(key);
    this.untils.push(until);
  }

  /** When the oldest key expires; Infinity when the queue is empty. */
  frontUntil(): number {
    return this.head < this.keys.length ? this.untils[this.head]! : Infinity;
  }

  /** Takes the oldest key off (call only when `frontUntil` is finite) and returns it. */
  shift(): string {
    const key = this.keys[this.head]!;
    this.head++;
    if (this.head > 1024 && this.head * 2 > this.keys.length) {
      this.keys = this.keys.slice(this.head);
      this.untils = this.untils.slice(this.head);
      this.head = 0;
    }
    return key;
  }
}
