/**
 * How many bytes requests of one kind may hold in this process at once. Uploads are read whole
 * before they are forwarded (so that a retry resends the very same bytes); the budget bounds the
 * memory that many uploads at the same moment can take.
 */
export class ByteBudget {
  private used = 0;
  private readonly byOwner = new Map<string, number>();

  /** `share`: the most one owner (a conversation) may hold at once, so one visitor never takes it all. */
  constructor(
    readonly capacity: number,
    readonly share = capacity,
  ) {}

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
  lease(owner = ''): ByteLease {
    const releases: Array<() => void> = [];
    return {
      take: (bytes) => {
        const owned = this.byOwner.get(owner) ?? 0;
        if (owned + bytes > this.share) return false;
        const release = this.take(bytes);
        if (!release) return false;
        this.byOwner.set(owner, owned + bytes);
        releases.push(() => {
          release();
          const left = (this.byOwner.get(owner) ?? 0) - bytes;
          if (left > 0) this.byOwner.set(owner, left);
          else this.byOwner.delete(owner);
        });
        return true;
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
