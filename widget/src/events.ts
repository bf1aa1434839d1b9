/**
 * The event stream client: `EventSource` on `GET /api/events?ticket=…&lastEventId=…`, reopened by
 * us (not by the browser) so that each attempt carries a fresh single-use ticket and the last event id,
 * with exponential backoff and jitter.
 */
import { STREAM_EVENT_NAMES, type StreamEventName } from '../../shared/types.js';

/** Gets every named event with its parsed data and SSE id. */
export type OnEvent = (name: StreamEventName, data: any, id: string) => void;

export interface Stream {
  close(): void;
  /** Reopens now (after going back online, or a token refresh). */
  restart(): void;
}

const MAX_DELAY = 30_000;

/**
 * Opens the stream; `url` is asked again before every attempt (it may refresh the token first).
 * `onState` hears `true` when it opens and `false` at each failed or broken attempt.
 */
export function openStream(url: () => Promise<string | undefined>, onEvent: OnEvent, onState: (up: boolean) => void = () => {}): Stream {
  let es: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let closed = false;
  let seq = 0; // a newer connect() wins over one still waiting for its URL

  const stop = () => {
    clearTimeout(timer);
    es?.close();
    es = undefined;
  };

  const connect = async () => {
    stop();
    const mine = ++seq;
    let target: string | undefined;
    try {
      target = await url();
    } catch {
      // e.g. the refresh failed on the network: try again later.
    }
    if (closed || mine !== seq) return;
    if (!target) return retry();
    const source = (es = new EventSource(target));
    source.onopen = () => {
      attempt = 0;
      onState(true);
    };
    for (const name of STREAM_EVENT_NAMES) {
      source.addEventListener(name, (e) => {
        const me = e as MessageEvent;
        // The browser's own failures also arrive as `error`, without data.
        if (me.data === undefined) return retry();
        let data: unknown;
        try {
          data = JSON.parse(me.data);
        } catch {
          return;
        }
        onEvent(name, data, me.lastEventId);
      });
    }
  };

  const retry = () => {
    stop();
    if (closed) return;
    onState(false);
    const delay = Math.min(MAX_DELAY, 1000 * 2 ** attempt++) * (0.5 + Math.random() / 2);
    timer = setTimeout(connect, delay);
  };

  void connect();
  return {
    close() {
      closed = true;
      stop();
    },
    restart() {
      attempt = 0;
      void connect();
    },
  };
}
