import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Stream } from './events.js';
import { sharedStream, type Relayed } from './shared-stream.js';
import { flush } from '../test/support.js';

/** Web Locks as the browser keeps them: one holder per name, the others wait in order; `steal` preempts. */
class FakeLocks {
  private holder = new Map<string, { reject(e: unknown): void; done: boolean }>();
  private waiting = new Map<string, Array<() => void>>();
  request(name: string, options: { signal?: AbortSignal; steal?: boolean }, hold: () => Promise<void> | undefined): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        const me = { reject, done: false };
        this.holder.set(name, me);
        Promise.resolve(hold()).then(() => {
          if (me.done) return;
          me.done = true;
          resolve(undefined);
          if (this.holder.get(name) !== me) return;
          this.holder.delete(name);
          this.waiting.get(name)?.shift()?.();
        });
      };
      const current = this.holder.get(name);
      if (options.steal && current) {
        current.done = true;
        current.reject(new DOMException('stolen', 'AbortError'));
        return grant();
      }
      if (!current) return grant();
      const queue = this.waiting.get(name) ?? [];
      queue.push(grant);
      this.waiting.set(name, queue);
      options.signal?.addEventListener('abort', () => {
        const at = queue.indexOf(grant);
        if (at < 0) return;
        queue.splice(at, 1);
        reject(new DOMException('aborted', 'AbortError'));
      });
    });
  }
}

/** BroadcastChannel between "tabs": every other open channel of the same name gets the message. */
class FakeChannel {
  static open: FakeChannel[] = [];
  onmessage: ((e: { data: unknown }) => void) | null = null;
  constructor(readonly name: string) {
    FakeChannel.open.push(this);
  }
  postMessage(data: unknown) {
    for (const c of FakeChannel.open) if (c !== this && c.name === this.name) queueMicrotask(() => c.onmessage?.({ data }));
  }
  close() {
    FakeChannel.open = FakeChannel.open.filter((c) => c !== this);
  }
}

/** A tab: the streams it opened, the relay it was given, what it received from others. */
function tab(key = 'parley-stream:https://bff.test:42') {
  const opened: Array<{ relay: (e: Relayed) => void; closed: boolean }> = [];
  const received: Relayed[] = [];
  const stream = sharedStream(
    key,
    (relay) => {
      const entry = { relay, closed: false };
      opened.push(entry);
      return { close: () => (entry.closed = true), restart: () => {} } satisfies Stream;
    },
    (e) => received.push(e),
  );
  return { stream, opened, received };
}

/** A browser with Web Locks and BroadcastChannel (the fakes above). */
function withLocks() {
  vi.stubGlobal('navigator', { ...navigator, locks: new FakeLocks() });
  vi.stubGlobal('BroadcastChannel', FakeChannel);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  FakeChannel.open = [];
});

describe('sharedStream', () => {
  it('opens one stream for all tabs and relays its events to the others', async () => {
    withLocks();
    const a = tab();
    const b = tab();
    const c = tab();
    await flush();
    expect([a.opened.length, b.opened.length, c.opened.length]).toEqual([1, 0, 0]);
    a.opened[0]!.relay(['message', { id: '1', role: 'bot', text: 'hi' }, '7']);
    await flush();
    expect(b.received).toEqual([['message', { id: '1', role: 'bot', text: 'hi' }, '7']]);
    expect(c.received).toEqual(b.received);
    expect(a.received).toEqual([]);
  });

  it('hands the stream to a waiting tab when the holder closes; a closed waiting tab never opens one', async () => {
    withLocks();
    const a = tab();
    const b = tab();
    const c = tab();
    await flush();
    b.stream.close(); // gone while waiting
    a.stream.close();
    await flush();
    expect(a.opened[0]!.closed).toBe(true);
    expect([b.opened.length, c.opened.length]).toEqual([0, 1]);
  });

  it('a tab that comes into view takes the stream over; the one it took it from listens again', async () => {
    withLocks();
    const a = tab();
    const b = tab();
    await flush();
    let visibility = 'hidden';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility as DocumentVisibilityState);
    visibility = 'visible';
    document.dispatchEvent(new Event('visibilitychange')); // both tabs hear it in this test; only b lacks the stream
    await flush();
    expect(a.opened[0]!.closed).toBe(true);
    expect(b.opened).toHaveLength(1);
    b.opened[0]!.relay(['state', { state: 'escalated' }, '9']);
    await flush();
    expect(a.received).toEqual([['state', { state: 'escalated' }, '9']]);
    b.stream.close(); // b goes: a, waiting again, takes over
    await flush();
    expect(a.opened).toHaveLength(2);
    a.stream.close();
  });

  it('keeps a stream per conversation: another session is another key', async () => {
    withLocks();
    const a = tab('parley-stream:https://bff.test:1');
    const b = tab('parley-stream:https://bff.test:2');
    await flush();
    expect([a.opened.length, b.opened.length]).toEqual([1, 1]);
  });

  it('without Web Locks every tab opens its own stream', async () => {
    vi.stubGlobal('navigator', { ...navigator, locks: undefined });
    const a = tab();
    const b = tab();
    await flush();
    expect([a.opened.length, b.opened.length]).toEqual([1, 1]);
  });
});
