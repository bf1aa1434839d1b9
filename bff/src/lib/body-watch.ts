import type { IncomingMessage } from 'node:http';

/** A body being read: when its last byte came, and when it must be done. A link of the watch's list. */
class Watched {
  /** Neighbours in the watch's list of reads; `watch` is undefined once done. */
  prev: Watched | undefined = undefined;
  next: Watched | undefined = undefined;

  constructor(
    private watch: BodyWatch | undefined,
    readonly incoming: IncomingMessage,
    public lastByteAt: number,
    readonly idleMs: number,
    readonly deadline: number,
    readonly cut: (reason: string) => void,
    private readonly clock: () => number,
  ) {}
  /** A byte came. */
  touch(): void {
    this.lastByteAt = this.clock();
  }
  /** The body is read (or refused): no longer watched. Called again, does nothing. */
  done(): void {
    this.watch?.unlink(this);
    this.watch = undefined;
  }
}

/**
 * Cuts request bodies that stall or trickle, with one timer for all of them: each read is a
 * record the sweep looks at once a second, so a read costs an object, two links and a clock
 * read per chunk, not a timer per request (the webhook path runs at tens of thousands a second).
 * The reads are a linked list, not a `Set`: adding and removing needs no hash, and a set that
 * fills and empties with every burst of requests is also reallocated as it grows and shrinks
 * (both showed in the webhook's profile, docs/benchmarks.md).
 * The timer stops at a sweep that finds nothing to watch, not each time the list empties, so a
 * steady stream of short requests does not start and stop it for every one.
 */
export class BodyWatch {
  private head: Watched | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly intervalMs = 1_000,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Watches `incoming` until the returned `done` is called: past `idleMs` without a byte, or past
   * `totalMs` from now, the connection is destroyed and `cut` told why. `touch` marks a byte.
   */
  watch(incoming: IncomingMessage, limits: { idleMs?: number; totalMs?: number }, cut: (reason: string) => void): { touch(): void; done(): void } {
    const now = this.now();
    const w = new Watched(this, incoming, now, limits.idleMs ?? Infinity, limits.totalMs === undefined ? Infinity : now + limits.totalMs, cut, this.now);
    w.next = this.head;
    if (this.head) this.head.prev = w;
    this.head = w;
    this.timer ??= setInterval(() => this.sweep(), this.intervalMs).unref();
    return w;
  }

  /** How many reads are watched now (for tests). */
  get size(): number {
    let n = 0;
    for (let w = this.head; w; w = w.next) n++;
    return n;
  }

  /** Takes `w` out of the list (`Watched.done`). */
  unlink(w: Watched): void {
    if (w.prev) w.prev.next = w.next;
    else this.head = w.next;
    if (w.next) w.next.prev = w.prev;
    w.prev = w.next = undefined;
  }

  private sweep(): void {
    if (!this.head) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const now = this.now();
    for (let w: Watched | undefined = this.head; w; ) {
      const next: Watched | undefined = w.next; // `done` unlinks w
      const reason = now - w.lastByteAt >= w.idleMs ? `no body bytes for ${w.idleMs} ms` : now >= w.deadline ? 'the body was not complete in time' : undefined;
      if (reason) {
        w.done();
        // Nothing can be answered to a client that stopped sending mid-body: drop the connection.
        w.incoming.destroy();
        w.cut(reason);
      }
      w = next;
    }
  }
}

/** The process's body watch: every body read through `readIncomingBody` is on it. */
export const bodyWatch = new BodyWatch();
