import { connect, type Socket } from 'node:net';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { startBff } from '../helpers/bff.js';
import { captureOutput } from '../helpers/output.js';
import { until } from '../helpers/wait.js';

// One upload's worth of memory in all (MAX_UPLOAD_FILES × MAX_UPLOAD_BYTES + 256 KiB): a client
// that could hold it would block every other upload.
const BUDGET = 1 * 1000 + 256 * 1024;

describe('request bodies: slow, stalled and aborted clients', () => {
  let bff: RunningServer;
  let printed: ReturnType<typeof captureOutput>;
  beforeAll(async () => {
    printed = captureOutput();
    bff = await startBff({
      LOG_LEVEL: 'info',
      MAX_UPLOAD_BYTES: '1000',
      MAX_UPLOAD_FILES: '1',
      MAX_UPLOAD_MEMORY_BYTES: String(BUDGET),
      BODY_IDLE_TIMEOUT_MS: '700',
      WEBHOOK_BODY_TIMEOUT_MS: '1500',
      HEADERS_TIMEOUT_MS: '1000',
      SIM_REPLY_DELAY_MS: '5',
    });
  });
  afterAll(async () => {
    await bff.stop();
    printed?.restore();
  });
  /** Resolves once the server has read the headers of a request to `path`. */
  const received = (path: string) => new Promise<void>((resolve) => bff.server.on('request', function seen(req: IncomingMessage) {
    if (req.url !== path) return;
    bff.server.off('request', seen);
    resolve();
  }));

  const session = async () => {
    const res = await fetch(`${bff.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' });
    return ((await res.json()) as { token: string }).token;
  };
  const upload = async (token: string) => {
    const form = new FormData();
    form.append('files', new Blob(['a small file'], { type: 'text/plain' }), 'note.txt');
    const res = await fetch(`${bff.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    await res.body?.cancel();
    return res.status;
  };
  /** Opens a raw upload request declaring the whole budget, sends `bodyBytes` of it, then nothing. */
  const stalledUpload = async (token: string, bodyBytes: number): Promise<Socket> => {
    const socket = connect(bff.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${BUDGET}\r\n\r\n` +
        'y'.repeat(bodyBytes),
    );
    socket.on('error', () => {});
    return socket;
  };
  const closed = (socket: Socket) =>
    new Promise<void>((resolve) => {
      socket.resume(); // read whatever the server answers, so its end (and 'close') comes through
      if (socket.destroyed) resolve();
      else socket.once('close', () => resolve());
    });

  it('a client that declares the whole budget and sends nothing holds nothing', async () => {
    const token = await session();
    const taken = received('/api/upload');
    const staller = await stalledUpload(token, 0);
    await taken; // the server holds the request, with no body yet
    expect(await upload(await session())).toBe(202);
    staller.destroy();
  });

  it('a body that stalls is cut within the idle limit, and the bytes it held are free again', async () => {
    const started = Date.now(); // counted from the send, so the limit holds with room to spare
    const staller = await stalledUpload(await session(), BUDGET - 100);
    await closed(staller);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await upload(await session())).toBe(202);
  });

  /** A raw request with `headers` (Content-Length included) and `body`; the socket stays open. */
  const rawRequest = async (head: string, body = ''): Promise<Socket> => {
    const socket = connect(bff.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.on('error', () => {});
    socket.write(`${head}\r\n\r\n${body}`);
    return socket;
  };
  const answerOf = (socket: Socket) =>
    new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (c: Buffer) => (text += c.toString()));
      socket.once('close', () => resolve(text));
    });

  it('a JSON body that declares bytes and sends none is cut within the idle limit', async () => {
    const token = await session();
    const socket = await rawRequest(`POST /api/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100`);
    const started = Date.now();
    await closed(socket);
    expect(Date.now() - started).toBeLessThan(2500); // 700 ms idle, checked every second
  });

  it('a webhook body that trickles (never idle) is cut at WEBHOOK_BODY_TIMEOUT_MS', async () => {
    const socket = await rawRequest('POST /webhooks/agent HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Timestamp: 1\r\nX-Service-Signature: 00\r\nContent-Length: 1000', '{');
    const trickle = setInterval(() => socket.writable && socket.write(' '), 200); // well inside the 700 ms idle limit
    const started = Date.now();
    await closed(socket);
    clearInterval(trickle);
    const took = Date.now() - started;
    expect(took).toBeGreaterThan(1000);
    expect(took).toBeLessThan(3500); // 1.5 s, checked every second
  });

  it('a declared body past a route\'s maximum is 413 at once, before a byte of it is sent', async () => {
    const token = await session();
    const socket = await rawRequest(`POST /api/messages HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024}`);
    const answer = await answerOf(socket);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('"code":"payload_too_large"');
  });

  it('a connection that never finishes its headers is closed within HEADERS_TIMEOUT_MS', async () => {
    const socket = connect(bff.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.write('POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const started = Date.now();
    await closed(socket);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('an aborted body is one info line, with no stack trace', async () => {
    const token = await session();
    const from = printed.lines.length;
    const taken = received('/api/upload');
    const socket = await stalledUpload(token, 5000);
    await taken; // aborted while its body is being read, not before the server has the request
    socket.destroy();
    await until('the abort logged', () => printed.lines.slice(from).some((line) => line.includes('request body aborted')));
    const lines = printed.lines.slice(from).filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.filter((l) => l.level !== 'debug').map((l) => [l.level, l.msg])).toEqual([['info', 'request body aborted']]);
    expect(printed.lines.slice(from).join('\n')).not.toMatch(/\n\s+at /);
  });
});

describe('request bodies: one visitor cannot hold every upload\'s memory', () => {
  // Room for four uploads in all; a conversation may hold a quarter (one upload).
  const ONE = 1000 + 256 * 1024;
  let bff: RunningServer; // in process: nothing here reads the server's output
  beforeAll(async () => {
    bff = await startBff({ MAX_UPLOAD_BYTES: '1000', MAX_UPLOAD_FILES: '1', MAX_UPLOAD_MEMORY_BYTES: String(4 * ONE), BODY_IDLE_TIMEOUT_MS: '5000', SIM_REPLY_DELAY_MS: '5', RATE_LIMIT_MESSAGES_PER_MIN: '1000' });
  });
  afterAll(() => bff.stop());

  it('a conversation that stalls uploads holds at most its share; another visitor\'s small upload goes through', async () => {
    const token = async () => ((await (await fetch(`${bff.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"hi"}' })).json()) as { token: string }).token;
    const greedy = await token();
    const sockets: Socket[] = [];
    let refused = 0;
    for (let i = 0; i < 4; i++) {
      const socket = connect(bff.port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.on('error', () => {});
      socket.on('data', (chunk: Buffer) => {
        if (chunk.toString().startsWith('HTTP/1.1 429')) refused++;
      });
      socket.write(`POST /api/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${greedy}\r\nContent-Type: multipart/form-data; boundary=x\r\nContent-Length: ${ONE}\r\n\r\n` + 'y'.repeat(ONE - 10));
      sockets.push(socket);
    }
    // One holds its share; the server has read the others far enough to refuse them.
    await until('three of the four refused', () => refused === 3);
    const form = new FormData();
    form.append('files', new Blob(['a small file'], { type: 'text/plain' }), 'note.txt');
    const res = await fetch(`${bff.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${await token()}` }, body: form });
    expect(res.status).toBe(202);
    for (const socket of sockets) socket.destroy();
  });
});
