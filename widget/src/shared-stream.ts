/**
 * One event stream per browser and conversation, whatever the number of tabs: the tab holding a
 * Web Lock keeps the stream and relays its events on a BroadcastChannel, the others listen. When
 * that tab goes, the next one takes the lock and connects from its own last event id, so nothing
 * is lost. Over HTTP/1.1 a browser opens six connections per origin: a stream per tab would use
 * them up with six tabs and stall every other request to the BFF.
 * Without Web Locks or BroadcastChannel, every tab keeps a stream of its own.
 */
import type { Stream } from './events.js';

/** An event as relayed between tabs: name, data, SSE id. */
export type Relayed = [name: string, data: unknown, id: string];

interface LockManager {
  request(name: string, options: { signal: AbortSignal }, hold: () => Promise<void>): Promise<unknown>;
}

/**
 * Joins the tabs sharing `key`. `open` is called in the one tab that holds the stream, with
 * `relay` to pass each event on; `receive` gets the events relayed by another tab.
 */
export function sharedStream(key: string, open: (relay: (event: Relayed) => void) => Stream, receive: (event: Relayed) => void): Stream {
  const locks = (navigator as Navigator & { locks?: LockManager }).locks;
  if (!locks || typeof BroadcastChannel !== 'function') return open(() => {});
  const channel = new BroadcastChannel(key);
  channel.onmessage = (e: MessageEvent<Relayed>) => receive(e.data);
  const abort = new AbortController();
  let stream: Stream | undefined;
  let release: (() => void) | undefined;
  locks
    .request(key, { signal: abort.signal }, () =>
      new Promise<void>((done) => {
        release = done;
        stream = open((event) => channel.postMessage(event));
      }),
    )
    .catch(() => {}); // given up while waiting (closed): nothing to do
  return {
    close() {
      abort.abort();
      stream?.close();
      release?.();
      channel.close();
    },
    restart() {
      stream?.restart();
    },
  };
}
