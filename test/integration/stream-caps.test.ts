import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { until } from '../helpers/wait.js';

let bff: RunningServer;
const open: AbortController[] = [];

beforeAll(async () => {
  bff = await startBff({ MAX_STREAMS_PER_CONVERSATION: '3', MAX_STREAMS_PER_CLIENT: '5', RATE_LIMIT_MESSAGES_PER_MIN: '1000' });
});
afterAll(async () => {
  for (const c of open) c.abort();
  await bff.stop();
});

/** Opens a stream over a real socket and keeps it open; resolves with its status (and code when refused). */
async function stream(token: string): Promise<{ status: number; code?: string; close: () => void }> {
  const controller = new AbortController();
  const res = await fetch(`${bff.url}/api/events?token=${token}`, { signal: controller.signal });
  if (res.status !== 200) return { status: res.status, code: ((await res.json()) as { error: { code: string } }).error.code, close: () => {} };
  open.push(controller);
  return { status: 200, close: () => controller.abort() };
}

const conversation = async () => ((await call(bff.url, 'POST', '/api/session', { body: { text: 'hi' } })).body as { token: string }).token;
const metrics = async () => (await (await fetch(`${bff.url}/metrics`)).text()) as string;

describe('caps on open event streams', () => {
  it('refuses one stream more than a conversation may have (429 too_many_streams) and frees the place when one closes', async () => {
    const a = await conversation();
    const streams = [await stream(a), await stream(a), await stream(a)];
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200]);
    expect(await stream(a)).toMatchObject({ status: 429, code: 'too_many_streams' });
    expect(await metrics()).toContain('parley_streams_refused_total{reason="conversation"} 1');

    streams[0]!.close();
    await until('the closed stream to be released', async () => (await stream(a)).status === 200);
  });

  it('refuses past the per-client cap across conversations, whatever conversation asks', async () => {
    // The first test holds 3 streams from this address; two more reach the client cap of 5.
    const b = await conversation();
    expect([(await stream(b)).status, (await stream(b)).status]).toEqual([200, 200]);
    expect(await stream(await conversation())).toMatchObject({ status: 429, code: 'too_many_streams' });
    expect(await metrics()).toContain('parley_streams_refused_total{reason="client"}');
  });
});

describe('a ticket reconnect at the conversation’s cap', () => {
  let capped: RunningServer;
  beforeAll(async () => {
    capped = await startBff({ MAX_STREAMS_PER_CONVERSATION: '2' });
  });
  afterAll(() => capped.stop());

  it('replaces the ticket’s own stream instead of being refused; a stream of another ticket still is', async () => {
    const token = ((await call(capped.url, 'POST', '/api/session', { body: { text: 'hi' } })).body as { token: string }).token;
    const ticket = async () => ((await call(capped.url, 'POST', '/api/events/ticket', { token })).body as { ticket: string }).ticket;
    const opened: AbortController[] = [];
    const connect = async (t: string, lastEventId?: string) => {
      const controller = new AbortController();
      opened.push(controller);
      const res = await fetch(`${capped.url}/api/events?ticket=${t}`, { signal: controller.signal, headers: lastEventId ? { 'last-event-id': lastEventId } : {} });
      return res;
    };
    try {
      const mine = await ticket();
      const first = await connect(mine);
      const other = await connect(await ticket());
      expect([first.status, other.status]).toEqual([200, 200]);
      // The conversation is at its cap of 2; the reconnect (what EventSource sends after a drop the
      // server has not noticed yet) takes the place of the stream it continues.
      const again = await connect(mine, '1');
      expect(again.status).toBe(200);
      // The replaced stream ends; the other ticket's stays, and the count stays at the cap.
      const reader = first.body!.getReader();
      while (!(await reader.read()).done);
      const third = await connect(await ticket());
      expect([third.status, ((await third.json()) as { error: { code: string } }).error.code]).toEqual([429, 'too_many_streams']);
    } finally {
      for (const c of opened) c.abort();
    }
  });
});
