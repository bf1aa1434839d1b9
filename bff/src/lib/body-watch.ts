import type { IncomingMessage } from 'node:http';

/** A body being read: when its last byte came, and when it must be done. */
interface Watched {
  incoming: IncomingMessage;
  lastByteAt: number;
  idleMs: number;
  deadline: number;
  cut: (reason: string) => void;
}

/**
 * Cuts request bodies that stall or trickle, with one timer for all of them: each read is a
 * record the sweep looks at once a second, so a read costs a Set insert and a clock read per
 * chunk, not a timer per request (the webhook path runs at tens of thousands a second).
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
    const w: Watched = {
      incoming,
      lastByteAt: now,
      idleMs: limits.idleMs ?? Infinity,
      deadline: limits.totalMs === undefined ? Infinity : now + limits.totalMs,
      cut,
    };
    this.reads.add(w);
    this.timer ??= setInterval(() => this.sweep(), this.intervalMs).unref();
    return {
      touch: () => void (w.lastByteAt = this.now()),
      done: () => this.forget(w),
    };
  }

  private forget(w: Watched): void {
    this.reads.delete(w);
    if (this.reads.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const w of this.reads) {
      const reason = now - w.lastByteAt >= w.idleMs ? `no body bytes for ${w.idleMs} ms` : now >= w.deadline ? 'the body was not complete in time' : undefined;
      if (!reason) continue;
      this.forget(w);
      // Nothing can be answered to a client that stopped sending mid-body: drop the connection.
      w.incoming.destroy();
      w.cut(reason);
    }
  }
}

/** The process's body watch: every body read through `readIncomingBody` is on it. */
export const bodyWatch = new BodyWatch();
