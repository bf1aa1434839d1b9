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

  /** Bytes taken and not released yet. */
  get inUse(): number {
    return this.used;
  }
}
