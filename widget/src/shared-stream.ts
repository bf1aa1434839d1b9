/**
 * One event stream per browser and conversation, whatever the number of tabs: the tab holding a
 * Web Lock keeps the stream and relays its events on a BroadcastChannel, the others listen. When
 * that tab goes, the next one takes the lock and connects from its own last event id, so nothing
 * is lost. A tab that comes into view takes the lock over (a background tab may be suspended, as
 * mobile browsers do, and would hold the stream for nobody). Over HTTP/1.1 a browser opens six
 * connections per origin: a stream per tab would use them up with six tabs and stall every
 * other request to the BFF. Without Web Locks or BroadcastChannel, every tab keeps its own.
 */
import type { Stream } from './events.js';

/** An event as relayed between tabs: name, data, SSE id. */
export type Relayed = [name: string, data: unknown, id: string];

type LockOptions = { signal: AbortSignal } | { steal: true };
interface LockManager {
  request(name: string, options: LockOptions, hold: () => Promise<void> | undefined): Promise<unknown>;
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
  let stream: Stream | undefined;
  let release: (() => void) | undefined;
  let waiting: AbortController | undefined;
  let attempt = 0; // a newer join() supersedes the older one
  let closed = false;

  const drop = () => {
    stream?.close();
    release?.();
    stream = release = undefined;
  };

  /** Asks for the lock (taking it from its holder with `steal`) and holds the stream once granted. */
  const join = (steal: boolean) => {
    const mine = ++attempt;
    waiting = steal ? undefined : new AbortController();
    locks
      .request(key, waiting ? { signal: waiting.signal } : { steal: true }, () => {
        if (closed || mine !== attempt) return undefined; // superseded before the grant: let it go
        return new Promise<void>((done) => {
          release = done;
          stream = open((event) => channel.postMessage(event));
        });
      })
      .catch(() => {
        // Aborted by us (closed, or about to steal), or taken by a tab that came into view:
        // in the last case this tab waits for its turn again and listens meanwhile.
        if (closed || mine !== attempt) return;
        drop();
        join(false);
      });
  };

  const onVisible = () => {
    if (document.visibilityState !== 'visible' || stream || closed) return;
    waiting?.abort();
    join(true);
  };

  join(false);
  document.addEventListener('visibilitychange', onVisible);
  return {
    close() {
      closed = true;
      document.removeEventListener('visibilitychange', onVisible);
      waiting?.abort();
      drop();
      channel.close();
    },
    restart() {
      stream?.restart();
    },
  };
}
