import { describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { MemoryOnceStore, MemoryRateLimiter } from '../adapters/memory-limits.js';
import { MemoryEventStore } from '../adapters/memory-store.js';
import { StoreUnavailableError } from '../errors.js';
import { TokenService } from '../lib/tokens.js';
import type { EventStore } from '../ports/event-store.js';
import type { RateLimiter } from '../ports/rate-limiter.js';
import { streamDeps } from '../../../test/helpers/stream-deps.js';

/** What makes the next stream open fail once, before the stream opens; the retry finds it gone. */
type Refusal = { limiter?: RateLimiter; store?: (memory: EventStore) => EventStore; env?: Record<string, string>; query?: string };

/** Refuses the first stream open of each conversation, as a stream-rate limit that was just hit. */
function refusingFirstStream(): RateLimiter {
  const memory = new MemoryRateLimiter();
  let refused = false;
  return {
    hit: async (key, limit, windowMs) => {
      if (key.startsWith('streams:') && !refused) {
        refused = true;
        return { allowed: false, retryAfterSec: 1 };
      }
      return memory.hit(key, limit, windowMs);
    },
  };
}

/** An event store whose `method` fails once with `store_unavailable`. */
function failingOnce(method: 'subscribe' | 'lastId'): (memory: EventStore) => EventStore {
  return (memory) => {
    let failed = false;
    const fail = () => {
      if (failed) return;
      failed = true;
      throw new StoreUnavailableError();
    };
    return {
      append: (...args) => memory.append(...args),
      read: (...args) => memory.read(...args),
      rememberAuthor: (...args) => memory.rememberAuthor(...args),
      authorsOf: (id) => memory.authorsOf(id),
      ping: () => memory.ping(),
      close: () => memory.close(),
      subscribe: async (id, listener) => {
        if (method === 'subscribe') fail();
        return memory.subscribe(id, listener);
      },
      lastId: async (id) => {
        if (method === 'lastId') fail();
        return memory.lastId(id);
      },
    };
  };
}

function bff(refusal: Refusal = {}) {
  const config = loadConfig({ DEMO: 'true', ...refusal.env });
  const tokens = new TokenService({ secret: config.sessionJwtSecret, accessTtlSec: 900, refreshTtlSec: 3600, onceStore: new MemoryOnceStore() });
  const memory = new MemoryEventStore({ maxEvents: 10, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
  const deps = streamDeps(config, tokens, { store: refusal.store ? refusal.store(memory) : memory, ...(refusal.limiter && { rateLimiter: refusal.limiter }) });
  const app = createApp(deps);
  return {
    app,
    async ticket(token: string): Promise<string> {
      const res = await app.request('/api/events/ticket', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      return ((await res.json()) as { ticket: string }).ticket;
    },
    token: async () => (await tokens.issue('7', undefined)).token,
  };
}

/** Status and error code of an answer; the body of a stream that opened is cancelled (it ends the stream). */
async function answer(res: Response): Promise<[number, string | undefined]> {
  if (res.status === 200) {
    await res.body!.cancel();
    return [200, undefined];
  }
  return [res.status, ((await res.json()) as { error: { code: string } }).error.code];
}

describe('GET /api/events?ticket= refused before the stream opens (docs/api.md "Event stream")', () => {
  const cases: Array<[string, Refusal, number, string]> = [
    ['the stream rate limit', { limiter: refusingFirstStream() }, 429, 'rate_limited'],
    ['a store that cannot subscribe', { store: failingOnce('subscribe') }, 503, 'store_unavailable'],
    ['a store that cannot tell its newest id', { store: failingOnce('lastId') }, 503, 'store_unavailable'],
    ['a malformed Last-Event-ID', { query: '&lastEventId=x' }, 400, 'invalid_request'],
  ];
  it.each(cases)('%s leaves the ticket for a retry, which spends it', async (_name, refusal, status, code) => {
    const { app, ticket, token } = bff(refusal);
    const t = await ticket(await token());
    expect(await answer(await app.request(`/api/events?ticket=${t}${refusal.query ?? ''}`))).toEqual([status, code]);
    expect(await answer(await app.request(`/api/events?ticket=${t}`))).toEqual([200, undefined]);
    expect(await answer(await app.request(`/api/events?ticket=${t}`))).toEqual([401, 'invalid_token']);
  });

  it('the per-conversation stream cap leaves the ticket for a retry once a stream closed', async () => {
    const { app, ticket, token } = bff({ env: { MAX_STREAMS_PER_CONVERSATION: '1' } });
    const access = await token();
    const first = await app.request(`/api/events?token=${access}`);
    expect(first.status).toBe(200);
    const t = await ticket(access);
    expect(await answer(await app.request(`/api/events?ticket=${t}`))).toEqual([429, 'too_many_streams']);
    await first.body!.cancel();
    expect(await answer(await app.request(`/api/events?ticket=${t}`))).toEqual([200, undefined]);
    expect(await answer(await app.request(`/api/events?ticket=${t}`))).toEqual([401, 'invalid_token']);
  });

  it('a ticket used by two first connects at once opens one stream only (a copy from a log gets 401)', async () => {
    const { app, ticket, token } = bff();
    const t = await ticket(await token());
    const both = await Promise.all([app.request(`/api/events?ticket=${t}`), app.request(`/api/events?ticket=${t}`)]);
    expect((await Promise.all(both.map(answer))).sort()).toEqual([
      [200, undefined],
      [401, 'invalid_token'],
    ]);
  });
});
