import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventSource } from 'eventsource';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, JWT_SECRET, postWebhook, startBff, WEBHOOK_SECRET } from '../helpers/bff.js';
import { startServer, type SpawnedServer } from '../helpers/server.js';
import { until } from '../helpers/wait.js';

// A standard EventSource (the `eventsource` package, as a browser's own) given the documented
// ticket URL, across a real restart of the BFF on the same port.
let dir: string;
let env: Record<string, string>;
const running: Array<SpawnedServer | RunningServer> = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-eventsource-'));
  env = { SESSION_JWT_SECRET: JWT_SECRET, WEBHOOK_SECRET, SPENT_TOKENS_FILE: join(dir, 'spent'), SIM_REPLY_DELAY_MS: '5', SIM_DUPLICATE_RATE: '0', IDENTITY_SECRET: '' };
});
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await rm(dir, { recursive: true, force: true });
});

/** A BFF process: for the restart, where a real process ending is the point. */
const boot = async (extra: Record<string, string> = {}) => {
  const server = await startServer({ ...env, ...extra });
  running.push(server);
  return server;
};
/** A BFF in this process, where no restart is needed. */
const bootHere = async (extra: Record<string, string> = {}) => {
  const server = await startBff({ ...env, ...extra });
  running.push(server);
  return server;
};
const message = (sessionId: string, text: string) => ({
  event: 'message.added',
  eventId: `evt-${text}-${Math.random()}`,
  sessionId: Number(sessionId),
  data: { messageId: `m-${text}-${Math.random()}`, message: text, hbo: 'operator', username: 'Grace' },
});

describe('a standard EventSource with a ticket URL', () => {
  it('keeps its stream across a restart of the BFF: every event sent meanwhile arrives, none twice', async () => {
    const before = await boot();
    const s = (await call(before.url, 'POST', '/api/session', { body: { text: 'hello' } })).body as { sessionId: string; token: string };
    const { ticket } = (await call(before.url, 'POST', '/api/events/ticket', { token: s.token })).body as { ticket: string };
    const texts: string[] = [];
    const source = new EventSource(`${before.url}/api/events?ticket=${ticket}`);
    source.addEventListener('message', (e) => {
      const m = JSON.parse(e.data) as { text: string; role: string };
      if (m.role === 'operator') texts.push(m.text); // the simulated agent's own answers to "hello" are not the point
    });
    try {
      await postWebhook(before.url, message(s.sessionId, 'before'));
      await until('the first event', () => texts.includes('before'));

      await before.stop(); // closes every stream; the client starts reconnecting with Last-Event-ID
      const after = await boot({ PORT: String(before.port) });
      const meanwhile = ['one', 'two', 'three', 'four'];
      for (const text of meanwhile) expect((await postWebhook(after.url, message(s.sessionId, text))).status).toBe(200);
      await until('the events sent meanwhile', () => meanwhile.every((t) => texts.includes(t)), 15_000);
      expect(texts).toEqual(['before', ...meanwhile]);
      expect(source.readyState).toBe(EventSource.OPEN);
    } finally {
      source.close();
    }
  }, 60_000);

  it('a used ticket does not open a stream without Last-Event-ID, nor after STREAM_RECONNECT_SEC', async () => {
    const server = await bootHere({ STREAM_RECONNECT_SEC: '1' });
    const s = (await call(server.url, 'POST', '/api/session', { body: { text: 'hello' } })).body as { token: string };
    const { ticket } = (await call(server.url, 'POST', '/api/events/ticket', { token: s.token })).body as { ticket: string };
    const first = await fetch(`${server.url}/api/events?ticket=${ticket}`);
    expect(first.status).toBe(200);
    const again = await fetch(`${server.url}/api/events?ticket=${ticket}`);
    expect(again.status).toBe(401); // a second first connect: no Last-Event-ID
    await first.body!.cancel();
    const reconnect = await fetch(`${server.url}/api/events?ticket=${ticket}`, { headers: { 'last-event-id': '1' } });
    expect(reconnect.status).toBe(200);
    await reconnect.body!.cancel();
    // Time is the subject (STREAM_RECONNECT_SEC=1), and asking earlier would open the stream and start the grace again.
    await new Promise((r) => setTimeout(r, 1_500));
    const late = await fetch(`${server.url}/api/events?ticket=${ticket}`, { headers: { 'last-event-id': '1' } });
    expect(late.status).toBe(401);
  }, 30_000);

  it('a ticket holds one stream at a time: a reconnect replaces the open one, and Last-Event-ID 0 is no reconnect', async () => {
    const server = await bootHere();
    const s = (await call(server.url, 'POST', '/api/session', { body: { text: 'hello' } })).body as { token: string };
    const { ticket } = (await call(server.url, 'POST', '/api/events/ticket', { token: s.token })).body as { ticket: string };
    const url = `${server.url}/api/events?ticket=${ticket}`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    // "Resume after 0" would replay the whole conversation: that is a first connect, and the ticket is spent.
    expect((await fetch(`${url}&lastEventId=0`)).status).toBe(401);
    expect((await fetch(url, { headers: { 'last-event-id': '0' } })).status).toBe(401);
    // A reconnect while the first is still open (copied from a log, or a client that missed the close) takes its place.
    const second = await fetch(url, { headers: { 'last-event-id': '1' } });
    expect(second.status).toBe(200);
    const reader = first.body!.getReader();
    const ended = async () => {
      for (;;) if ((await reader.read()).done) return true;
    };
    expect(await Promise.race([ended(), new Promise((r) => setTimeout(() => r(false), 5_000))])).toBe(true);
    const third = await fetch(`${url}&lastEventId=2`);
    expect(third.status).toBe(200);
    const secondReader = second.body!.getReader();
    await expect(
      (async () => {
        for (;;) if ((await secondReader.read()).done) return 'closed';
      })(),
    ).resolves.toBe('closed');
    await third.body!.cancel();
  }, 30_000);
});
