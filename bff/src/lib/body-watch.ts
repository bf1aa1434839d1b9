import type { IncomingMessage } from 'node:http';

/**
 * A body being read, as the watch sees it: when its last byte came and when it must be done, and a
 * link of the watch's list. `cut` says what becomes of it when the watch cuts it. A reader may be
 * one itself (`BodyRead` in body-read.ts: one object per read, not a reader and a record).
 */
export abstract class WatchedBody {
  /** Neighbours in the watch's list of reads. */
  prev: WatchedBody | undefined = undefined;
  next: WatchedBody | undefined = undefined;
  /** The watch this read is on; undefined before `BodyWatch.add` and once done. */
  watchedBy: BodyWatch | undefined = undefined;
  lastByteAt = 0;
  idleMs = Infinity;
  deadline = Infinity;

  constructor(readonly incoming: IncomingMessage) {}

  /** A byte came. */
  touch(): void {
    if (this.watchedBy) this.lastByteAt = this.watchedBy.now();
  }

  /** The body is read (or refused): no longer watched. Called again, does nothing. */
  done(): void {
    this.watchedBy?.unlink(this);
    this.watchedBy = undefined;
  }

  /** Told once, when the watch cut this read (its request is destroyed by then). */
  abstract cut(reason: string): void;
}

/** A watched read whose cut is told to a callback (`BodyWatch.watch`). */
class CallbackWatched extends WatchedBody {
  constructor(
    incoming: IncomingMessage,
    private readonly onCut: (reason: string) => void,
  ) {
    super(incoming);
  }

  cut(reason: string): void {
    this.onCut(reason);
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
  private head: WatchedBody | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly intervalMs = 1_000,
    readonly now: () => number = Date.now,
  ) {}

  /**
   * Watches `incoming` until the returned `done` is called: past `idleMs` without a byte, or past
   * `totalMs` from now, the connection is destroyed and `cut` told why. `touch` marks a byte.
   */
  watch(incoming: IncomingMessage, limits: { idleMs?: number; totalMs?: number }, cut: (reason: string) => void): WatchedBody {
    const w = new CallbackWatched(incoming, cut);
    this.add(w, limits);
    return w;
  }

  /** Puts `w` on the watch, with its limits counted from now (as `watch`). */
  add(w: WatchedBody, limits: { idleMs?: number; totalMs?: number }): void {
    const now = this.now();
    w.lastByteAt = now;
    w.idleMs = limits.idleMs ?? Infinity;
    w.deadline = limits.totalMs === undefined ? Infinity : now + limits.totalMs;
    w.watchedBy = this;
    w.next = this.head;
    if (this.head) this.head.prev = w;
    this.head = w;
    this.timer ??= setInterval(() => this.sweep(), this.intervalMs).unref();
  }

  /** How many reads are watched now (for tests). */
  get size(): number {
    let n = 0;
    for (let w = this.head; w; w = w.next) n++;
    return n;
  }

  /** Takes `w` out of the list (`WatchedBody.done`). */
  unlink(w: WatchedBody): void {
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
    for (let w: WatchedBody | undefined = this.head; w; ) {
      const next: WatchedBody | undefined = w.next; // `done` unlinks w
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
