import { Hono } from 'hono';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { StoredEvent } from '../../../shared/types.js';
import type { AppDeps, AppEnv } from '../context.js';
import { AppError, ValidationError } from '../errors.js';
import { frame, nodeSink, webSink, type SseSink } from '../lib/sse.js';
import { nodeResponse } from '../lib/node-response.js';
import { rateLimit } from '../middleware.js';
import { routeMounter } from './mount.js';
import { clientIp } from '../lib/client-ip.js';
import { StreamCaps } from '../lib/stream-caps.js';

const REPLAY_PAGE = 200;
const EVENT_ID = /^\d{1,15}$/;
/**
 * Told to a client that may have missed events: the log started over or dropped some it had not
 * received. It reloads the newest history page. No `id:`, so the client's last id stays.
 */
const RESET = 'event: reset\ndata: {}\n\n';

/** `GET /api/events` (docs/api.md "Event stream"): subscribe, replay after `Last-Event-ID`, then live. */
export function eventRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const now = deps.now ?? Date.now;
  const caps = new StreamCaps(deps.config.maxStreamsPerConversation, deps.config.maxStreamsPerClient);
  const refused = (reason: 'conversation' | 'client') => deps.observer?.streamRefused?.(reason);
  // The open stream of each ticket on this instance: a reconnect with the ticket replaces it, so a
  // ticket (copied from a log, say) never holds a second stream beside the first.
  const byTicket = new Map<string, SseSink>();
  const route = routeMounter(app, deps);

  // A ticket keeps the access token out of the stream's URL (and so out of proxy and CDN logs).
  route('POST /api/events/ticket', [], async (c) => c.json({ ticket: await deps.tokens.ticket(c.get('session')) }));

  // Hono answers HEAD through the GET route, which would spend a single-use ticket and open a stream
  // nobody reads: HEAD is no route here, like any other method the route does not serve.
  app.use('/api/events', async (c, next) => {
    if (c.req.method === 'HEAD') throw new AppError('not_found', 'No such route');
    await next();
  });
  route('GET /api/events', [], async (c) => {
    const session = c.get('session');
    const { conversationId, expiresAt } = session;
    // Tabs and reconnects (with backoff) stay far below this; a loop opening streams does not.
    await rateLimit(deps, `streams:${conversationId}`, deps.config.rateLimitMessagesPerMin * 2);
    const rawLast = c.req.header('last-event-id') ?? c.req.query('lastEventId');
    if (rawLast !== undefined && rawLast !== '' && !EVENT_ID.test(rawLast)) {
      throw new ValidationError('Last-Event-ID must be a whole number');
    }
    let lastSent = rawLast ? Number(rawLast) : 0;
    // A ticket's reconnect replaces the stream it holds here (closed below once this one opens), so
    // it is never refused for the place its own predecessor takes: a drop the server has not noticed
    // yet would otherwise keep a conversation at its cap out of its stream.
    const replaces = session.ticketId !== undefined && byTicket.has(session.ticketId);
    const release = caps.take(conversationId, clientIp(c, deps.config.trustProxy), refused, replaces);

    // Subscribe before reading, and hold live events until the replay is written:
    // nothing appended in between is missed, and the id check drops what both paths saw.
    // After the store lost its data, ids start over: then a known id is news, not a repeat.
    let pending: Array<[StoredEvent, boolean]> | undefined = [];
    let sink: SseSink | undefined;
    const send = (e: StoredEvent, restarted = false, live = true) => {
      if (!sink || (e.id <= lastSent && !restarted)) return;
      if (restarted) sink.write(RESET);
      lastSent = e.id;
      sink.write(frame(e.id, e.event, e.data));
      // Delivery latency is a live figure: a replayed event may be days old.
      if (live) deps.observer?.delivered?.(now() - e.ts);
    };
    let unsubscribe: () => void;
    let newest: number;
    try {
      unsubscribe = await deps.store.subscribe(conversationId, (e, restarted = false) => (pending ? pending.push([e, restarted]) : send(e, restarted)));
    } catch (err) {
      release();
      throw err;
    }
    const clientLast = lastSent;
    try {
      newest = await deps.store.lastId(conversationId);
      // Spent last, once nothing else can refuse the stream: a 429 or 503 leaves the ticket for a retry.
      await c.get('spendTicket')?.();
    } catch (err) {
      unsubscribe();
      release();
      throw err;
    }
    // An id the store never gave out means the store started over since (a Redis that lost its
    // data, a memory BFF whose clock was set back): everything it holds now is new to this client.
    const startedOver = lastSent > newest;
    if (startedOver) lastSent = 0;

    // Headers are written here, on the raw response: reading `c.res` would make Hono wrap the
    // RESPONSE_ALREADY_SENT marker in a new Response, and node-server would write a second head.
    // widgetCors has already refused foreign origins, so an Origin present here is allowed.
    const headers: Record<string, string> = { vary: 'Origin' };
    const origin = c.req.header('origin');
    if (origin) {
      headers['access-control-allow-origin'] = origin;
      headers['access-control-expose-headers'] = 'X-Request-Id';
    }
    headers['x-request-id'] = c.get('requestId');
    let response: Response = RESPONSE_ALREADY_SENT;
    const outgoing = nodeResponse(c);
    if (outgoing) {
      sink = nodeSink(outgoing, headers);
    } else {
      const web = webSink(headers, c.req.raw.signal);
      sink = web.sink;
      response = web.response;
    }

    const expiry = setTimeout(() => {
      sink!.write(frame(lastSent, 'error', { code: 'token_expired', message: 'Session token expired; refresh it and reconnect' }));
      sink!.close();
    }, Math.max(0, expiresAt - now()));
    expiry.unref();
    const { ticketId } = session;
    if (ticketId !== undefined) {
      byTicket.get(ticketId)?.close();
      byTicket.set(ticketId, sink);
    }
    deps.observer?.streamOpened?.();
    // The visitor is there: an operator's message reaches them here, not by email.
    const streamId = c.get('requestId');
    deps.continuity?.streamOpened(conversationId, streamId, expiresAt);
    // A standard EventSource reconnects with the same ticket URL: keep the ticket live meanwhile.
    deps.tokens.streamOpened(session).catch((err: unknown) => deps.logger.warn('stream ticket not recorded', { error: String(err) }));
    sink.onClose(() => {
      clearTimeout(expiry);
      if (ticketId !== undefined && byTicket.get(ticketId) === sink) byTicket.delete(ticketId);
      unsubscribe();
      release();
      deps.tokens.streamClosed(session).catch((err: unknown) => deps.logger.warn('stream ticket not recorded', { error: String(err) }));
      deps.observer?.streamClosed?.();
      deps.continuity?.streamClosed(conversationId, streamId);
    });
    deps.heartbeat.add(sink);
    // Reconnect quickly after a deploy or a dropped connection.
    sink.write('retry: 2000\n\n');

    try {
      for (let first = true; ; first = false) {
        const page = await deps.store.read(conversationId, lastSent, REPLAY_PAGE);
        // Ids are dense: a first event past the next id, or none while newer ones were given out,
        // means events this client never received are gone (a restart, retention).
        if (first && clientLast > 0 && (startedOver || (page[0]?.id ?? newest + 1) > clientLast + 1)) sink.write(RESET);
        for (const e of page) send(e, false, false);
        if (page.length < REPLAY_PAGE || sink.closed) break;
      }
      const held = pending;
      pending = undefined;
      for (const [e, restarted] of held) send(e, restarted);
    } catch (err) {
      // The stream is already open, so the failure can only be told in-band.
      deps.logger.warn('stream replay failed', { requestId: c.get('requestId'), error: String(err) });
      sink.write(frame(lastSent, 'error', { code: 'store_unavailable', message: 'Could not load earlier events; reconnecting' }));
      sink.close();
    }
    return response;
  });

  return app;
}
