/**
 * How many bytes requests of one kind may hold in this process at once. Uploads are read whole
 * before they are forwarded (so that a retry resends the very same bytes); the budget bounds the
 * memory that many uploads at the same moment can take.
 */
export class ByteBudget {
  private used = 0;

  constructor(readonly capacity: number) {}

  /** Takes `bytes` if they fit now; returns their release (safe to call twice), else undefined. */
  take(bytes: number): (() => void) | undefined {
    if (bytes > this.capacity - this.used) return undefined;
    this.used += bytes;
    let held = true;
    return () => {
      if (held) this.used -= bytes;
      held = false;
    };
  }

  /**
   * A holder for one request that takes bytes as they arrive (so a client that declares a large
   * body and sends nothing holds nothing) and gives them all back with `release()`.
   */
  lease(): ByteLease {
    const releases: Array<() => void> = [];
    return {
      take: (bytes) => {
        const release = this.take(bytes);
        if (release) releases.push(release);
        return release !== undefined;
      },
      release: () => {
        for (const release of releases.splice(0)) release();
      },
    };
  }

  /** Bytes taken and not released yet. */
  get inUse(): number {
    return this.used;
  }
}

/** Bytes one request holds in a `ByteBudget`. */
export interface ByteLease {
  /** Takes `bytes` more if they fit now; false when the budget is spent. */
  take(bytes: number): boolean;
  /** Gives back everything taken (safe to call twice). */
  release(): void;
}
