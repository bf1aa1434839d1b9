import type { IncomingMessage } from 'node:http';

/** A body being read: when its last byte came, and when it must be done. */
class Watched {
  constructor(
    readonly incoming: IncomingMessage,
    public lastByteAt: number,
    readonly idleMs: number,
    readonly deadline: number,
    readonly cut: (reason: string) => void,
    private readonly clock: () => number,
    private readonly reads: Set<Watched>,
  ) {}
  /** A byte came. */
  touch(): void {
    this.lastByteAt = this.clock();
  }
  /** The body is read (or refused): no longer watched. */
  done(): void {
    this.reads.delete(this);
  }
}

/**
 * Cuts request bodies that stall or trickle, with one timer for all of them: each read is a
 * record the sweep looks at once a second, so a read costs an object, a Set insert and a clock
 * read per chunk, not a timer per request (the webhook path runs at tens of thousands a second).
 * The timer stops at a sweep that finds nothing to watch, not each time the set empties, so a
 * steady stream of short requests does not start and stop it for every one.
 */
export class BodyWatch {
  private readonly reads = new Set<Watched>();
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
    const w = new Watched(incoming, now, limits.idleMs ?? Infinity, limits.totalMs === undefined ? Infinity : now + limits.totalMs, cut, this.now, this.reads);
    this.reads.add(w);
    this.timer ??= setInterval(() => this.sweep(), this.intervalMs).unref();
    return w;
  }

  private sweep(): void {
    if (this.reads.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    const now = this.now();
    for (const w of this.reads) {
      const reason = now - w.lastByteAt >= w.idleMs ? `no body bytes for ${w.idleMs} ms` : now >= w.deadline ? 'the body was not complete in time' : undefined;
      if (!reason) continue;
      w.done();
      // Nothing can be answered to a client that stopped sending mid-body: drop the connection.
      w.incoming.destroy();
      w.cut(reason);
    }
  }
}

/** The process's body watch: every body read through `readIncomingBody` is on it. */
export const bodyWatch = new BodyWatch();
