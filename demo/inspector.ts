import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Observer, WebhookObservation } from '../bff/src/ports/observer.js';

/** A webhook observation as the inspector shows it: numbered, with the time it was seen. */
export interface InspectedWebhook extends WebhookObservation {
  /** Grows by one per observation; also the SSE `id`, so a reconnect resumes without repeats. */
  seq: number;
  /** Epoch milliseconds. */
  at: number;
}

export interface InspectorOptions {
  /** Observations kept and replayed to a new viewer (default 200). */
  size?: number;
  /** Interval of the keep-alive comment (default 15 s). */
  heartbeatMs?: number;
}

export interface Inspector {
  /** Pass to the BFF: it reports every incoming webhook here. */
  observer: Observer;
  /** `GET /demo/inspector/events` (SSE) and `GET /demo/inspector/recent` (JSON). */
  app: Hono;
  recent(): InspectedWebhook[];
  /** Open event streams (for tests and for the console's status line). */
  viewers(): number;
}

type Listener = (item: InspectedWebhook) => void;

/** The live webhook inspector of the demo: a ring of recent observations and an SSE feed of them. */
export function createInspector(options: InspectorOptions = {}): Inspector {
  const size = options.size ?? 200;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const ring: InspectedWebhook[] = [];
  const listeners = new Set<Listener>();
  let seq = 0;

  const observer: Observer = {
    webhook(observation) {
      // Observers must never throw into the BFF's webhook path.
      try {
        const item: InspectedWebhook = { ...observation, durationMs: Math.round(observation.durationMs * 100) / 100, seq: ++seq, at: Date.now() };
        ring.push(item);
        if (ring.length > size) ring.shift();
        for (const listener of listeners) listener(item);
      } catch {
        // A broken viewer is not the BFF's problem.
      }
    },
  };

  const app = new Hono();

  app.get('/demo/inspector/recent', (c) => c.json({ observations: [...ring] }));

  app.get('/demo/inspector/events', (c) => {
    const lastId = Number(c.req.header('last-event-id') ?? c.req.query('lastEventId') ?? 0);
    return streamSSE(c, async (stream) => {
      const queue: InspectedWebhook[] = [];
      let wake: (() => void) | undefined;
      let open = true;
      const listener: Listener = (item) => {
        queue.push(item);
        wake?.();
      };
      // Subscribe and snapshot the ring in one synchronous step: nothing falls in between,
      // and nothing is queued twice.
      listeners.add(listener);
      queue.push(...ring.filter((item) => !(item.seq <= lastId)));
      stream.onAbort(() => {
        open = false;
        listeners.delete(listener);
        wake?.();
      });

      while (open) {
        const item = queue.shift();
        if (item) {
          await stream.writeSSE({ id: String(item.seq), data: JSON.stringify(item) });
          continue;
        }
        const timedOut = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(true), heartbeatMs);
          wake = () => {
            clearTimeout(timer);
            resolve(false);
          };
        });
        wake = undefined;
        if (timedOut && open) await stream.write(': heartbeat\n\n');
      }
      listeners.delete(listener);
    });
  });

  return { observer, app, recent: () => [...ring], viewers: () => listeners.size };
}
