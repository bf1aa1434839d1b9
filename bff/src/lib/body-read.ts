// Reading a request body as bytes: from a web `Request`, or straight from Node's request (`BodyRead`).
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { RequestAbortedError } from '../errors.js';
import { bodyWatch, WatchedBody } from './body-watch.js';
import { busy, discardRest, tooLarge, type BodyLimits } from './body-limits.js';

/** Reads a request body as bytes, refusing (413) as soon as it passes `maxBytes`. */
export async function readBody(req: Request, maxBytes: number, limits: BodyLimits = {}): Promise<Uint8Array> {
  const declared = req.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (!req.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = req.body.getReader();
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (cause) {
      throw new RequestAbortedError('The request body ended early', { cause });
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    const refusal = size > maxBytes ? tooLarge(maxBytes) : limits.take && !limits.take(value.byteLength) ? busy() : undefined;
    if (refusal) {
      await reader.cancel().catch(() => {});
      throw refusal;
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/**
 * Reads the request body with a size cap, straight from Node's `IncomingMessage` when there is
 * one: going through `c.req.raw.body` makes @hono/node-server build a full web `Request`
 * (with an AbortSignal) per request, a measurable cost on the webhook hot path.
 */
export async function readRequestBody(c: Context, maxBytes: number, limits: BodyLimits = {}): Promise<Uint8Array> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (!incoming || typeof incoming.on !== 'function' || incoming.readableEnded) return readBody(c.req.raw, maxBytes, limits);
  return readIncomingBody(incoming, maxBytes, limits);
}

/**
 * Reads a Node request's body as bytes, refusing (413) as soon as it passes `maxBytes`. Stalls and
 * trickles are cut by `bodyWatch` (`limits.idleMs`, `limits.totalMs`), with no timer per request.
 */
export function readIncomingBody(incoming: IncomingMessage, maxBytes: number, limits: BodyLimits = {}): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => new PromisedBody(incoming, maxBytes, limits, resolve, reject).start());
}

/** The read in progress on a request, where the listeners all reads share find it. */
const READ = Symbol('parley.bodyRead');
type Reading = IncomingMessage & { [READ]?: BodyRead };

/**
 * One body read from a Node request: the size cap, `limits.take`, the body watch, and a request
 * that ends early. Subclasses say what becomes of the bytes (`finish`, told once). One object per
 * read, which is also its record on the body watch, and listeners shared by every read (they find
 * the read on the request): no closures per request, as the webhook's fast path (a subclass) runs
 * this at tens of thousands a second (docs/benchmarks.md).
 */
export abstract class BodyRead extends WatchedBody {
  private first: Buffer | undefined = undefined;
  private chunks: Buffer[] | undefined = undefined;
  private size = 0;
  private settled = false;

  constructor(
    incoming: IncomingMessage,
    private readonly maxBytes: number,
    private readonly limits: BodyLimits,
  ) {
    super(incoming);
  }

  /** Told once, with the body's bytes or why there are none (a 413, 429 or cut `AppError`). */
  protected abstract finish(err: Error | undefined, bytes?: Buffer): void;

  /** Starts reading; `finish` may be told before this returns (a declared length over the cap). */
  start(): void {
    if (!this.refusedByLength()) this.listen();
  }

  /**
   * `start`, but the body is taken in the event loop's check phase (`setImmediate`), once Node has
   * parsed everything the last reads brought. A body that came whole with its headers, as a small
   * one sent in one write does, is then taken with one `read()`: no listener, no watch, no stream
   * events. Any other is read as `start` reads it. Requests that arrive together are answered
   * together, after all of them are parsed, which costs less CPU per request than answering each
   * as it is parsed (the webhook's fast path: docs/benchmarks.md).
   */
  startInCheckPhase(): void {
    if (!this.refusedByLength()) setImmediate(takeInCheckPhase, this);
  }

  /** @internal `startInCheckPhase`'s turn. */
  takeWhenParsed(): void {
    const incoming = this.incoming;
    if (incoming.complete && !this.limits.take) {
      // Node keeps what it read of a request that was destroyed after it was complete.
      const body = (incoming.read() as Buffer | null) ?? Buffer.alloc(0);
      this.settled = true;
      return this.finish(body.length > this.maxBytes ? tooLarge(this.maxBytes) : undefined, body);
    }
    // The request closed before it was complete: its 'close' has been emitted already.
    if (incoming.destroyed) return this.closed();
    this.listen();
  }

  /** A declared Content-Length over the cap is refused before any byte is read. */
  private refusedByLength(): boolean {
    // Node's parser takes only digits in Content-Length (anything else is a 400 before any route).
    const declared = this.incoming.headers['content-length'];
    if (declared === undefined || Number(declared) <= this.maxBytes) return false;
    this.settled = true;
    discardRest(this.incoming);
    this.finish(tooLarge(this.maxBytes));
    return true;
  }

  private listen(): void {
    const incoming = this.incoming as Reading;
    bodyWatch.add(this, this.limits);
    incoming[READ] = this;
    incoming.on('data', onData).on('end', onEnd).on('close', onClose);
  }

  /** The body watch cut the read (stalled or late); the request is destroyed. */
  cut(reason: string): void {
    this.stop();
    this.finish(new RequestAbortedError(`Request body cut: ${reason}`));
  }

  /** @internal A chunk came (`onData`). */
  took(chunk: Buffer): void {
    if (this.settled) return;
    this.size += chunk.length;
    const refusal = this.size > this.maxBytes ? tooLarge(this.maxBytes) : this.limits.take && !this.limits.take(chunk.length) ? busy() : undefined;
    if (refusal) {
      this.stop();
      discardRest(this.incoming);
      return this.finish(refusal);
    }
    // Most bodies come in one chunk: no array for them.
    if (this.first === undefined) this.first = chunk;
    else (this.chunks ??= [this.first]).push(chunk);
    this.touch();
  }

  /**
   * @internal The body is complete (`onEnd`). The listeners stay on the finished request, told by
   * `settled` to do nothing: taking them off an emitter is work on every request (`delete` on its
   * listener table), and nothing comes after the end but 'close'. Refusals and aborts, where data
   * may still come, take them off.
   */
  ended(): void {
    if (this.settled) return;
    this.settled = true;
    this.done();
    this.finish(undefined, this.chunks ? Buffer.concat(this.chunks) : (this.first ?? Buffer.alloc(0)));
  }

  /**
   * @internal The request closed (`onClose`): before its end, the body ended early (the client
   * went away, a broken connection). No 'error' listener: Node's request emits 'error' only to
   * listeners it has, and 'close' follows every error (docs/benchmarks.md).
   */
  closed(): void {
    if (this.settled || this.incoming.complete) return;
    this.stop();
    this.finish(new RequestAbortedError('The request body ended early'));
  }

  private stop(): void {
    this.settled = true;
    this.done();
    this.incoming.off('data', onData).off('end', onEnd).off('close', onClose);
  }
}

function takeInCheckPhase(read: BodyRead): void {
  read.takeWhenParsed();
}

function onData(this: Reading, chunk: Buffer): void {
  this[READ]!.took(chunk);
}

function onEnd(this: Reading): void {
  this[READ]!.ended();
}

function onClose(this: Reading): void {
  this[READ]!.closed();
}

/** `readIncomingBody`'s read: settles a promise. */
class PromisedBody extends BodyRead {
  constructor(
    incoming: IncomingMessage,
    maxBytes: number,
    limits: BodyLimits,
    private readonly resolve: (bytes: Uint8Array) => void,
    private readonly reject: (err: Error) => void,
  ) {
    super(incoming, maxBytes, limits);
  }

  protected finish(err: Error | undefined, bytes?: Buffer): void {
    if (err) this.reject(err);
    else this.resolve(bytes!);
  }
}
