import type { Logger } from '../logger.js';

export interface AcceptedWritesOptions {
  logger: Pick<Logger, 'warn' | 'error' | 'info'>;
  /** Waits between attempts made while the request is still open, in milliseconds. */
  delaysMs?: readonly number[];
  /** How often writes that could not be made in time are tried again, in milliseconds. */
  repairEveryMs?: number;
  /** Writes kept for repair at most; past it the oldest is dropped with an error line. */
  maxPending?: number;
}

interface PendingWrite {
  label: string;
  write: () => Promise<unknown>;
  since: number;
}

/** Writes through `writes` when there is one (so a store failure is repaired, not thrown), else directly. */
export async function writeAccepted(writes: AcceptedWrites | undefined, label: string, write: () => Promise<unknown>): Promise<void> {
  if (writes) await writes.write(label, write);
  else await write();
}

/**
 * Store writes that must happen because the service already accepted something (a message sent
 * upstream, a conversation it created): the service's acceptance is what counts, so a store that
 * fails at that moment never turns into a retryable error for the browser, which would send the
 * message again. A write is tried a few times while the request is open, then kept and repaired
 * in the background once the store is back. Writes must be safe to repeat (an append with a
 * dedup key, a set), since a write that timed out may have landed.
 */
export class AcceptedWrites {
  private readonly pending: PendingWrite[] = [];
  private readonly delaysMs: readonly number[];
  private timer: ReturnType<typeof setInterval> | undefined;
  private repairing = false;

  constructor(private readonly o: AcceptedWritesOptions) {
    this.delaysMs = o.delaysMs ?? [50, 200, 800];
  }

  /** Writes now if the store lets it; otherwise keeps it for repair. True when written now. */
  async write(label: string, write: () => Promise<unknown>): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await write();
        return true;
      } catch (err) {
        const delay = this.delaysMs[attempt];
        if (delay === undefined) {
          this.keep({ label, write, since: Date.now() }, err);
          return false;
        }
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /** Writes waiting for the store. */
  get size(): number {
    return this.pending.length;
  }

  /** Tries every kept write once, oldest first; stops at the first that still fails. */
  async repair(): Promise<void> {
    if (this.repairing) return;
    this.repairing = true;
    try {
      while (this.pending.length) {
        const next = this.pending[0]!;
        try {
          await next.write();
        } catch {
          return;
        }
        this.pending.shift();
        this.o.logger.info('accepted write repaired', { label: next.label, delayedMs: Date.now() - next.since });
      }
      this.stopTimer();
    } finally {
      this.repairing = false;
    }
  }

  /** Tries kept writes one last time and stops repairing (at shutdown, before the store closes). */
  async close(): Promise<void> {
    this.stopTimer();
    await this.repair();
    this.stopTimer();
    if (this.pending.length) this.o.logger.error('accepted writes not stored at shutdown', { count: this.pending.length, labels: this.pending.map((p) => p.label).slice(0, 20) });
  }

  private keep(entry: PendingWrite, err: unknown): void {
    this.o.logger.warn('store write failed after the service accepted; repairing in the background', { label: entry.label, error: String(err) });
    this.pending.push(entry);
    const max = this.o.maxPending ?? 10_000;
    if (this.pending.length > max) {
      const dropped = this.pending.shift()!;
      this.o.logger.error('accepted write dropped: repair queue full', { label: dropped.label });
    }
    this.timer ??= setInterval(() => void this.repair(), this.o.repairEveryMs ?? 2_000);
    this.timer.unref?.();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
