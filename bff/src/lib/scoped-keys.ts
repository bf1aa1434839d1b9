import { ExpiryQueue } from './expiring-keys.js';

/**
 * Keys remembered per scope (a conversation) until they expire, at most `maxKeys` in all (oldest
 * dropped first): the memory store's dedup keys. Like `ExpiringKeys`, but a key is stored as it
 * came, with its scope as the value, not as one joined "scope + key" string: the joined string,
 * the pieces it keeps and a boxed expiry time were three of a stored webhook's eight objects on the
 * heap, each copied by the young-generation GC (docs/benchmarks.md). The same key in a second
 * scope at once (which the service's unique event ids make rare) is kept apart, under the joined
 * string.
 *
 * Expiry goes by queue order: `has` and `add` first drop what expired at `now` from the fronts,
 * so a key still held has not expired. Should the clock step back, a later key may expire before
 * an earlier one; it is then dropped when the earlier one is, a little late.
 */
export class ScopedKeys {
  /** Key → the scope that holds it. */
  private readonly first = new KeyQueue();
  /** "scope\nkey" → scope, for a key that `first` holds for another scope. */
  private readonly others = new KeyQueue();

  constructor(private readonly maxKeys: number) {}

  /** True when `key` was added in `scope` and has not expired at `now`. */
  has(scope: string, key: string, now: number): boolean {
    this.expire(now);
    if (this.first.scopeOf.get(key) === scope) return true;
    return this.others.scopeOf.size > 0 && this.others.scopeOf.get(joined(scope, key)) === scope;
  }

  /** Remembers `key` in `scope` until `until`. Call it only when `has` said false. */
  add(scope: string, key: string, until: number, now: number): void {
    if (this.first.scopeOf.has(key)) this.others.push(joined(scope, key), scope, until);
    else this.first.push(key, scope, until);
    this.expire(now);
  }

  /** Drops keys expired at `now`, and the oldest while there are more than `maxKeys`. */
  expire(now: number): void {
    for (;;) {
      // The older front of the two queues (by expiry time, which follows the order of adding).
      const a = this.first.frontUntil();
      const b = this.others.frontUntil();
      const queue = b < a ? this.others : this.first;
      const until = Math.min(a, b);
      if (until === Infinity || (until > now && this.size <= this.maxKeys)) return;
      queue.shift();
    }
  }

  get size(): number {
    return this.first.scopeOf.size + this.others.scopeOf.size;
  }
}

/** A map of keys to scopes, and the order they came in. */
class KeyQueue {
  readonly scopeOf = new Map<string, string>();
  private readonly order = new ExpiryQueue();

  push(key: string, scope: string, until: number): void {
    this.scopeOf.set(key, scope);
    this.order.push(key, until);
  }

  /** When the oldest key expires; Infinity when none is held. */
  frontUntil(): number {
    return this.order.frontUntil();
  }

  /** Forgets the oldest key. Every key is in the queue once: `add` is only called for keys not held. */
  shift(): void {
    this.scopeOf.delete(this.order.shift());
  }
}

const joined = (scope: string, key: string) => `${scope}\n${key}`;
