import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, JWT_SECRET, postWebhook, WEBHOOK_SECRET } from '../helpers/bff.js';
import { startServer, type SpawnedServer } from '../helpers/server.js';
import { openSse } from '../helpers/sse.js';

// One BFF process in memory mode, killed and started again with the same configuration.
let dir: string;
let env: Record<string, string>;
const running: SpawnedServer[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-restart-'));
  env = {
    SESSION_JWT_SECRET: JWT_SECRET,
    WEBHOOK_SECRET,
    SPENT_TOKENS_FILE: join(dir, 'spent-tokens'),
    SIM_REPLY_DELAY_MS: '5',
    SIM_DUPLICATE_RATE: '0',
    IDENTITY_SECRET: '',
  };
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await rm(dir, { recursive: true, force: true });
});

async function boot(): Promise<SpawnedServer> {
  const server = await startServer(env);
  running.push(server);
  return server;
}

/** Ends the process at once, as a crash or an OOM kill would: nothing is flushed on the way out. */
async function crash(server: SpawnedServer): Promise<void> {
  const exited = new Promise((resolve) => server.process.once('exit', resolve));
  server.kill('SIGKILL');
  await exited;
}

const message = (sessionId: string, text: string) => ({
  event: 'message.added',
  eventId: `evt-${text}-${Math.random()}`,
  sessionId: Number(sessionId),
  createdAt: Date.now(),
  data: { messageId: `m-${text}-${Math.random()}`, message: text, hbo: 'operator', username: 'Grace' },
});

interface Session {
  sessionId: string;
  token: string;
  refreshToken: string;
}
const newSession = async (base: string): Promise<Session> => (await call(base, 'POST', '/api/session', { body: { text: 'hello' } })).body;

// Each test boots two BFF processes from source, seconds each on a busy machine.
describe('memory mode across a restart of the BFF process', { timeout: 60_000 }, () => {
  it('a client reconnecting with a Last-Event-ID from before the restart misses none of the new events, and is told to reload history', async () => {
    const before = await boot();
    const s = await newSession(before.url);
    for (const text of ['before 1', 'before 2', 'before 3']) await postWebhook(before.url, message(s.sessionId, text));
    const first = await openSse(`${before.url}/api/events?token=${s.token}`);
    const last = await first.next((e) => JSON.parse(e.data).text === 'before 3');
    const seen = first.events.length;
    first.close();
    await crash(before);

    // More events than the client had seen arrive before it reconnects: numbered from 1 again,
    // the last ones would pass its Last-Event-ID and the first ones would never reach it.
    const after = await boot();
    const texts = Array.from({ length: seen + 2 }, (_, i) => `after ${i + 1}`);
    for (const text of texts) expect((await postWebhook(after.url, message(s.sessionId, text))).status).toBe(200);
    const again = await openSse(`${after.url}/api/events?token=${s.token}`, { 'last-event-id': last.id! });
    await again.next((e) => e.event === 'message' && JSON.parse(e.data).text === texts.at(-1));
    const messages = again.events.filter((e) => e.event === 'message');
    expect(messages.map((e) => JSON.parse(e.data).text)).toEqual(texts);
    expect(messages.every((e) => Number(e.id) > Number(last.id))).toBe(true);
    // What the old process had and the client did not is gone with it: the client is told to
    // reload history (the service keeps the messages), before the new events.
    expect(again.events[0]).toMatchObject({ event: 'reset', data: '{}' });
    again.close();
  });

  it('a refresh token spent before the restart stays spent; unspent ones still work', async () => {
    const before = await boot();
    const spender = await newSession(before.url);
    const other = await newSession(before.url);
    const renewed = await call(before.url, 'POST', '/api/token', { body: { refreshToken: spender.refreshToken } });
    expect(renewed.status).toBe(200);
    await crash(before);

    const after = await boot();
    // Visitors are not logged out: the other visitor's token and the spender's new one work.
    expect((await call(after.url, 'POST', '/api/token', { body: { refreshToken: other.refreshToken } })).status).toBe(200);
    const latest = await call(after.url, 'POST', '/api/token', { body: { refreshToken: renewed.body.refreshToken } });
    expect(latest.status).toBe(200);
    const reused = await call(after.url, 'POST', '/api/token', { body: { refreshToken: spender.refreshToken } });
    expect([reused.status, reused.body.error.code]).toEqual([401, 'refresh_token_reused']);
    // The reuse revokes its chain across the restart too: the pair issued after it stops working.
    const revoked = await call(after.url, 'POST', '/api/token', { body: { refreshToken: latest.body.refreshToken } });
    expect([revoked.status, revoked.body.error.code]).toEqual([401, 'refresh_token_reused']);
  });
});
