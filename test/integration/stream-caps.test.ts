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
