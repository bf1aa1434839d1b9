export interface DeltaBufferOptions {
  /** Flush once this many characters are waiting. */
  maxChars: number;
  /** Flush at the latest this long after the first waiting character (ms). */
  maxDelayMs: number;
}

/**
 * Coalesces a model's tiny deltas (often a word or less) into fewer `message_delta` events, so
 * the conversation log is not flooded and replays stay short, while text still appears within
 * `maxDelayMs`. Flushes never overlap and keep their order; `close` drains everything.
 */
export class DeltaBuffer {
  private waiting = '';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private chain: Promise<void> = Promise.resolve();
  private failure: unknown;

  constructor(
    private readonly flushTo: (text: string) => Promise<void>,
    private readonly options: DeltaBufferOptions,
  ) {}

  /** Adds text; throws if an earlier flush failed (the caller then stops the reply). */
  push(text: string): void {
    if (this.failure !== undefined) throw this.failure;
    if (text === '') return;
    this.waiting += text;
    if (this.waiting.length >= this.options.maxChars) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.options.maxDelayMs);
  }

  /** Flushes what is waiting and resolves when every flush is done; rejects with the first failure. */
  async close(): Promise<void> {
    this.flush();
    await this.chain;
    if (this.failure !== undefined) throw this.failure;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiting === '') return;
    const text = this.waiting;
    this.waiting = '';
    this.chain = this.chain.then(() =>
      this.failure === undefined
        ? this.flushTo(text).catch((err: unknown) => {
            this.failure = err;
          })
        : undefined,
    );
  }
}
