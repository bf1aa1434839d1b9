import type { ServerResponse } from 'node:http';

/**
 * Where one event stream is written. Two implementations: straight onto Node's response
 * (measured as cheap per stream as bare node:http: docs/benchmarks.md) and a web `ReadableStream`
 * for runtimes without Node's response (and `app.request()` in tests).
 */
export interface SseSink {
  /** Writes raw SSE text. Returns false (and closes) when the reader is too slow. */
  write(text: string): boolean;
  /** Ends the stream. Idempotent. */
  close(): void;
  /** Called once when the stream ends for any reason (client gone, close(), overflow). */
  onClose(callback: () => void): void;
  readonly closed: boolean;
}

/**
 * Bytes queued for a reader before it is cut off rather than buffered without bound; checked before
 * each frame, so at most this plus one frame (a message is at most a webhook body, 1 MiB) is held.
 */
export const MAX_BUFFERED_BYTES = 512 * 1024;

/** Response headers of every event stream (CORS headers are added by the caller). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
  'x-content-type-options': 'nosniff',
};

/** One SSE frame: `id:`, `event:` and a single JSON `data:` line. */
export function frame(id: number, event: string, data: unknown): string {
  // JSON.stringify never emits raw newlines, so one data line always suffices.
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The "ends once, tells everyone once" state both sinks share. */
function endOnce() {
  const callbacks: Array<() => void> = [];
  const state = {
    closed: false,
    finish() {
      if (state.closed) return;
      state.closed = true;
      for (const cb of callbacks) cb();
    },
    /** Runs `cb` when the stream ends, or at once if it has ended already. */
    onClose(cb: () => void) {
      if (state.closed) cb();
      else callbacks.push(cb);
    },
  };
  return state;
}

/** Opens a stream directly on Node's response; the caller returns `RESPONSE_ALREADY_SENT`. */
export function nodeSink(res: ServerResponse, headers: Record<string, string>): SseSink {
  res.writeHead(200, { ...SSE_HEADERS, connection: 'keep-alive', ...headers });
  res.flushHeaders();
  res.socket?.setNoDelay(true);
  return new NodeSink(res);
}

/**
 * A stream on Node's response: one object with its methods on the prototype and one listener,
 * because it lives as long as the connection (idle streams are counted in KB each at 10,000:
 * docs/benchmarks.md). A closure per method and a shared state object cost about twice as much.
 */
class NodeSink implements SseSink {
  closed = false;
  /** Told once when the stream ends; usually two (the route and the heartbeat). */
  private readonly callbacks: Array<() => void> = [];

  constructor(private readonly res: ServerResponse) {
    res.on('close', () => this.finish());
    // The client may have gone while the route awaited the store: 'close' has fired already.
    if (res.destroyed || !res.socket || res.socket.destroyed) this.finish();
  }

  write(text: string): boolean {
    if (this.closed) return false;
    // What is queued before this frame counts, not the frame itself: one message as large as the
    // webhook body allows still reaches a reader that reads, while one that stopped is cut off.
    if (this.res.writableLength > MAX_BUFFERED_BYTES) {
      this.res.destroy();
      this.finish();
      return false;
    }
    this.res.write(text);
    return true;
  }

  close(): void {
    if (!this.closed) this.res.end();
    this.finish();
  }

  onClose(callback: () => void): void {
    if (this.closed) callback();
    else this.callbacks.push(callback);
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const cb of this.callbacks) cb();
    this.callbacks.length = 0;
  }
}

/** Opens a stream as a web `Response` body (used where Node's response is not available). */
export function webSink(headers: Record<string, string>, signal?: AbortSignal): { sink: SseSink; response: Response } {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const end = endOnce();
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    cancel: end.finish,
  });
  const sink: SseSink = {
    get closed() {
      return end.closed;
    },
    write(text) {
      if (end.closed) return false;
      // As on Node's response: what is queued before this frame counts, so one large frame goes through.
      if ((controller.desiredSize ?? 0) < -MAX_BUFFERED_BYTES) {
        sink.close();
        return false;
      }
      controller.enqueue(encoder.encode(text));
      return true;
    },
    close() {
      if (!end.closed) {
        try {
          controller.close();
        } catch {
          // already closed by the reader
        }
      }
      end.finish();
    },
    onClose: end.onClose,
  };
  if (signal?.aborted) sink.close();
  else signal?.addEventListener('abort', () => sink.close(), { once: true });
  return { sink, response: new Response(body, { status: 200, headers: { ...SSE_HEADERS, ...headers } }) };
}

/** How often the heartbeat timer fires: each firing writes to the streams of one slice of the interval. */
export const HEARTBEAT_SLICE_MS = 100;

/**
 * One timer for all streams: a comment line keeps idle connections (and proxies) alive, once per
 * interval on every stream. A per-stream interval would cost memory per connection for no gain.
 * The streams are dealt into one group per 100 ms of the interval and each firing writes one
 * group: writing to every stream in one turn of the event loop held up every webhook behind it
 * (at 19,000 streams, 0.9–2.6 s every 15 s on a loaded 2-core machine; docs/benchmarks.md).
 */
export class Heartbeat {
  private readonly groups: Array<Set<SseSink>>;
  private readonly timer: NodeJS.Timeout;
  /** The group the next firing writes, and how many streams have been dealt (round-robin). */
  private next = 0;
  private dealt = 0;
  private count = 0;

  constructor(intervalMs: number) {
    const slices = Math.max(1, Math.round(intervalMs / HEARTBEAT_SLICE_MS));
    this.groups = Array.from({ length: slices }, () => new Set<SseSink>());
    this.timer = setInterval(() => {
      for (const sink of this.groups[this.next]!) sink.write(':\n\n');
      this.next = (this.next + 1) % slices;
    }, intervalMs / slices);
    this.timer.unref();
  }

  add(sink: SseSink): void {
    const group = this.groups[this.dealt++ % this.groups.length]!;
    group.add(sink);
    this.count++;
    sink.onClose(() => {
      if (group.delete(sink)) this.count--;
    });
  }

  get size(): number {
    return this.count;
  }

  /** Closes every open stream (shutdown) and stops the timer. */
  closeAll(): void {
    clearInterval(this.timer);
    for (const group of this.groups) for (const sink of [...group]) sink.close();
  }
}
