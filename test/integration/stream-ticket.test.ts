import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { captureOutput } from '../helpers/output.js';
import { openSse } from '../helpers/sse.js';
import { until } from '../helpers/wait.js';

// At debug level, with everything it prints kept, so every line it logs can be read for the token.
let bff: RunningServer;
let printed: ReturnType<typeof captureOutput>;
beforeAll(async () => {
  printed = captureOutput();
  bff = await startBff({ LOG_LEVEL: 'debug', SIM_REPLY_DELAY_MS: '5', SIM_DUPLICATE_RATE: '0', IDENTITY_SECRET: '' });
});
afterAll(async () => {
  await bff?.stop();
  printed?.restore();
});

const session = async () => (await call(bff.url, 'POST', '/api/session', { body: { text: 'hello' } })).body as { token: string };

describe('stream tickets (docs/api.md "Event stream")', () => {
  it('a ticket from POST /api/events/ticket opens the stream once; a second use is refused', async () => {
    const s = await session();
    const res = await call(bff.url, 'POST', '/api/events/ticket', { token: s.token });
    expect(res.status).toBe(200);
    const { ticket } = res.body as { ticket: string };
    const sse = await openSse(`${bff.url}/api/events?ticket=${ticket}`);
    await sse.next((e) => e.event === 'message');
    sse.close();
    const again = await fetch(`${bff.url}/api/events?ticket=${ticket}`);
    expect([again.status, ((await again.json()) as { error: { code: string } }).error.code]).toEqual([401, 'invalid_token']);
  });

  it('HEAD /api/events is no route (404 not_found) and leaves the ticket unspent', async () => {
    const s = await session();
    const { ticket } = (await call(bff.url, 'POST', '/api/events/ticket', { token: s.token })).body as { ticket: string };
    const head = await fetch(`${bff.url}/api/events?ticket=${ticket}`, { method: 'HEAD' });
    expect(head.status).toBe(404);
    const sse = await openSse(`${bff.url}/api/events?ticket=${ticket}`);
    expect(sse.status).toBe(200);
    sse.close();
  });

  it('needs the access token in the header', async () => {
    const res = await call(bff.url, 'POST', '/api/events/ticket');
    expect([res.status, res.body.error.code]).toEqual([401, 'unauthorized']);
  });

  it('?token= still opens the stream for old embeds, and no log line holds the token', async () => {
    const s = await session();
    const from = printed.lines.length;
    const sse = await openSse(`${bff.url}/api/events?token=${s.token}`);
    await sse.next((e) => e.event === 'message');
    sse.close();
    // Refusals log too: an expired-looking token and a malformed one.
    await fetch(`${bff.url}/api/events?token=${s.token}x`);
    await fetch(`${bff.url}/api/events?token=${s.token}&lastEventId=bad`);
    // The stream's line comes when it has closed, the refusals' when they were answered.
    const lines = () => printed.lines.slice(from).filter((line) => /"msg":"request".*"path":"\/api\/events"/.test(line)).length;
    await until('the stream and both refusals logged', () => lines() >= 3);
    const logs = printed.lines.join('\n');
    expect(logs).toContain('/api/events'); // the requests were logged
    expect(logs).not.toContain(s.token.split('.')[2]!);
  });
});

describe('a stream refused before it opens', () => {
  it('leaves its ticket unspent: the same ticket opens the stream once there is room', async () => {
    const one = await startBff({ MAX_STREAMS_PER_CONVERSATION: '1' });
    try {
      const s = (await call(one.url, 'POST', '/api/session', { body: { text: 'hello' } })).body as { token: string };
      const first = await openSse(`${one.url}/api/events?token=${s.token}`);
      const { ticket } = (await call(one.url, 'POST', '/api/events/ticket', { token: s.token })).body as { ticket: string };
      const refused = await fetch(`${one.url}/api/events?ticket=${ticket}`);
      expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([429, 'too_many_streams']);
      first.close();
      // The cap is released when the server sees the first stream close.
      let retried = await openSse(`${one.url}/api/events?ticket=${ticket}`);
      for (let i = 0; retried.status === 429 && i < 50; i++) {
        retried.close();
        await new Promise((r) => setTimeout(r, 20));
        retried = await openSse(`${one.url}/api/events?ticket=${ticket}`);
      }
      expect(retried.status).toBe(200);
      retried.close();
      const spent = await fetch(`${one.url}/api/events?ticket=${ticket}`);
      expect(spent.status).toBe(401);
    } finally {
      await one.stop();
    }
  });
});
