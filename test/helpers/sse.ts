/** One parsed Server-Sent Event as a browser would see it. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/** A test client for `text/event-stream`: collects frames (and comments) and waits for them. */
export interface SseClient {
  status: number;
  headers: Headers;
  events: SseEvent[];
  comments: number;
  /** Raw text received so far, for exact-frame assertions. */
  raw: string;
  /** Resolves with the first event (already received or future) matching `match`. */
  next(match?: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens an event stream with fetch (so headers like `Last-Event-ID` can be sent). */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const waiters: Array<{ match: (e: SseEvent) => boolean; resolve: (e: SseEvent) => void; seen: number }> = [];
  let endResolve!: () => void;
  const client: SseClient = {
    status: res.status,
    headers: res.headers,
    events: [],
    comments: 0,
    raw: '',
    ended: new Promise<void>((r) => (endResolve = r)),
    next(match = () => true, timeoutMs = 5000) {
      const found = client.events.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching SSE event within ${timeoutMs} ms; got ${JSON.stringify(client.events)}`)), timeoutMs);
        waiters.push({ match, seen: 0, resolve: (e) => (clearTimeout(timer), resolve(e)) });
      });
    },
    close: () => controller.abort(),
  };
  if (!res.ok || !res.body) {
    client.raw = await res.text();
    endResolve();
    return client;
  }
  void (async () => {
    const decoder = new TextDecoder();
    let buf = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        const text = decoder.decode(chunk, { stream: true });
        client.raw += text;
        buf += text;
        let i;
        while ((i = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          const e: SseEvent = { event: 'message', data: '' };
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) client.comments++;
            else if (line.startsWith('id: ')) e.id = line.slice(4);
            else if (line.startsWith('event: ')) ((e.event = line.slice(7)), (isEvent = true));
            else if (line.startsWith('data: ')) ((e.data += line.slice(6)), (isEvent = true));
          }
          if (!isEvent) continue;
          client.events.push(e);
          for (const w of [...waiters]) {
            if (w.match(e)) {
              waiters.splice(waiters.indexOf(w), 1);
              w.resolve(e);
            }
          }
        }
      }
    } catch {
      // aborted by close()
    }
    endResolve();
  })();
  return client;
}
