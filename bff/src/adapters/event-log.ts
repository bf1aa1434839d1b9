import type { StoredEvent, StreamEvent } from '../../../shared/types.js';

/** The first segment's size; each next one is twice the last, up to `MAX_SEGMENT`. */
const FIRST_SEGMENT = 8;
const MAX_SEGMENT = 128;

/**
 * Events in arrays made once at their full size: each event's name and data side by side in one,
 * its time (ms) in the other. Never grown: an array that grows is copied into a new one each
 * time, and the copy, made young, outlives a young-generation GC and is copied again
 * (docs/benchmarks.md).
 */
class Segment {
  /** Each event's name and data side by side: one cache line written per append, not two. */
  readonly items: Array<StreamEvent['event'] | StreamEvent['data'] | undefined>;
  /** Always numbers, so V8 keeps them unboxed. */
  readonly times: number[];
  /** Slots written so far. */
  used = 0;

  constructor(readonly capacity: number) {
    this.items = new Array(capacity * 2).fill(undefined);
    this.times = new Array(capacity).fill(0.5); // a double: the array is made as doubles at once
  }
}

/**
 * One conversation's events, oldest first, in segments of 8, 16, 32, 64, then 128 events: appending
 * never copies what is kept, dropping the oldest releases them at once, and a short conversation
 * holds a small segment. Ids are not stored: the caller numbers events by position.
 */
export class EventLog {
  private segments: Segment[] = [];
  /** Where the oldest kept event is in `segments[0]`. */
  private head = 0;
  /** Events kept. */
  size = 0;

  append(event: StreamEvent['event'], data: StreamEvent['data'], time: number): void {
    let last = this.segments[this.segments.length - 1];
    if (!last || last.used === last.capacity) {
      last = new Segment(last ? Math.min(MAX_SEGMENT, last.capacity * 2) : FIRST_SEGMENT);
      this.segments.push(last);
    }
    const i = last.used++;
    last.items[2 * i] = event;
    last.items[2 * i + 1] = data;
    last.times[i] = time;
    this.size++;
  }

  /** The oldest kept event's time; Infinity when none is kept. */
  oldestTime(): number {
    return this.size > 0 ? this.segments[0]!.times[this.head]! : Infinity;
  }

  /** Forgets the oldest kept event (call only when `size > 0`). */
  dropOldest(): void {
    const first = this.segments[0]!;
    first.items[2 * this.head] = undefined;
    first.items[2 * this.head + 1] = undefined;
    this.head++;
    this.size--;
    if (this.size === 0) {
      this.segments = [];
      this.head = 0;
    } else if (this.head === first.capacity) {
      this.segments.shift();
      this.head = 0;
    }
  }

  /** Up to `count` events from the `from`-th kept (0 = the oldest), the first of them numbered `firstId`. */
  slice(from: number, count: number, firstId: number): StoredEvent[] {
    const out: StoredEvent[] = [];
    let at = this.head + Math.max(0, from);
    let s = 0;
    while (s < this.segments.length && at >= this.segments[s]!.capacity) at -= this.segments[s++]!.capacity;
    let id = firstId;
    for (; s < this.segments.length && out.length < count; s++, at = 0) {
      const segment = this.segments[s]!;
      for (; at < segment.used && out.length < count; at++) {
        out.push(storedEvent(segment.items[2 * at] as StreamEvent['event'], segment.items[2 * at + 1] as StreamEvent['data'], id++, segment.times[at]!));
      }
    }
    return out;
  }
}

/**
 * An event as handed out. Spelled out: `{ ...event, id, ts }` takes V8's slow path (about 3 µs in
 * Node 20), a tenth of a whole webhook's cost (docs/benchmarks.md).
 */
export function storedEvent(event: StreamEvent['event'], data: StreamEvent['data'], id: number, ts: number): StoredEvent {
  return { event, data, id, ts } as StoredEvent;
}
