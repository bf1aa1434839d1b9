import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { request, type IncomingMessage } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { openSse } from '../helpers/sse.js';
import { until } from '../helpers/wait.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LEAD_TOKEN = 'tok-lead-Zq81xSECRET';
const UPLOAD_TOKEN = 'tok-upload-Hh27pSECRET';
const MAX_BYTES = 2048;

let bff: RunningServer;
let base: string;
let stdout: MockInstance;
/** Every response the widget side got in this file, to prove no token ever appears in one. */
const seen: string[] = [];

beforeAll(async () => {
  // The BFF logs through process.stdout: capture it to check the tokens never reach a log line.
  const write = process.stdout.write.bind(process.stdout);
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) =>
    String(chunk).startsWith('{"time"') ? true : write(chunk, ...rest)) as typeof process.stdout.write);
  bff = await startBff({
    FLOW_TOKENS: `lead:${LEAD_TOKEN},upload:${UPLOAD_TOKEN}`,
    UPLOAD_FLOW: 'upload',
    MAX_UPLOAD_BYTES: String(MAX_BYTES),
    MAX_UPLOAD_FILES: '2',
    RATE_LIMIT_SESSIONS_PER_MIN: '100',
    LOG_LEVEL: 'debug',
  });
  base = bff.url;
});
afterAll(async () => {
  await bff.stop();
  stdout.mockRestore();
});

async function widget(method: string, path: string, options: Parameters<typeof call>[3] = {}) {
  const res = await call(base, method, path, options);
  seen.push(JSON.stringify(res.body), JSON.stringify([...res.headers]));
  return res;
}

async function post(path: string, token: string, form: FormData): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  seen.push(text, JSON.stringify([...res.headers]));
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function session(text = 'Hi, I have a file for you') {
  const res = await widget('POST', '/api/session', { body: { text } });
  expect(res.status).toBe(201);
  return res.body as { sessionId: string; token: string };
}

/** `size` bytes (at least 45) laid out as a PNG is: its signature, a header chunk, then one data chunk of random bytes. */
function png(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(randomBytes(size));
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(bytes.buffer).setUint32(33, size - 45);
  bytes.set([0x49, 0x44, 0x41, 0x54], 37); // IDAT
  return bytes;
}

const jobs = async () => (await call(base, 'GET', '/sim/__flows/jobs')).body.jobs as Array<Record<string, any>>;
const job = async (id: string) => (await call(base, 'GET', `/sim/__flows/jobs/${id}`)).body;
const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

describe('POST /api/flows/:name', () => {
  it('needs a session token, and only names flows listed in FLOW_TOKENS (404 flow_not_found)', async () => {
    expect((await widget('POST', '/api/flows/lead', { body: { variables: {} } })).status).toBe(401);
    const s = await session();
    for (const name of ['nope', 'constructor', '__proto__', 'toString']) {
      const res = await widget('POST', `/api/flows/${name}`, { token: s.token, body: { variables: {} } });
      expect([res.status, res.body.error.code]).toEqual([404, 'flow_not_found']);
    }
  });

  it('the upload flow runs only through /api/upload, never by name with variables of the caller', async () => {
    const s = await session();
    const before = (await jobs()).length;
    const res = await widget('POST', '/api/flows/upload', { token: s.token, body: { variables: { anything: 'goes' } } });
    expect([res.status, res.body.error.code]).toEqual([404, 'flow_not_found']);
    expect((await jobs()).length).toBe(before);
  });

  it('JSON variables start the flow in this conversation: 202 {jobId}, and its result arrives on the stream', async () => {
    const s = await session();
    const sse = await openSse(`${base}/api/events?token=${s.token}`);
    const res = await widget('POST', '/api/flows/lead', { token: s.token, body: { variables: { name: 'Ada', seats: 3, vip: true } } });
    expect(res.status).toBe(202);
    expect(Object.keys(res.body)).toEqual(['jobId']);
    expect(await job(res.body.jobId)).toMatchObject({ kind: 'trigger', flow: 'lead', contentType: 'json', sessionId: Number(s.sessionId), variables: { name: 'Ada', seats: 3, vip: true }, files: [] });
    const result = await sse.next((e) => e.event === 'message' && JSON.parse(e.data).text?.includes(res.body.jobId));
    expect(JSON.parse(result.data)).toMatchObject({ role: 'bot', text: `Flow "lead" finished (job ${res.body.jobId}). Variables: name=Ada, seats=3, vip=true.` });
    sse.close();
  });

  it.each([
    [{ variables: { a: { nested: 1 } } }],
    [{ variables: { a: [1, 2] } }],
    [{ variables: { a: null } }],
    [{ variables: 'name=Ada' }],
    [{ variables: [] }],
    [{ variables: { a: 'x'.repeat(10_001) } }],
    [{ variables: {}, sessionId: 5 }],
  ])('refuses %j with 400, forwarding nothing', async (body) => {
    const s = await session();
    const before = (await jobs()).length;
    const res = await widget('POST', '/api/flows/lead', { token: s.token, body });
    expect([res.status, res.body.error.code]).toEqual([400, 'invalid_request']);
    expect(await jobs()).toHaveLength(before);
  });

  it('multipart files arrive byte-identical (md5 and size checked on the simulator side) with their variables', async () => {
    const s = await session();
    const a = randomBytes(MAX_BYTES); // exactly at the limit
    const b = new TextEncoder().encode('Grüße, flow! 👋');
    const form = new FormData();
    form.set('variables', JSON.stringify({ orderId: 'A-17', rush: false }));
    form.append('files', new Blob([a], { type: 'application/pdf' }), 'invoice.pdf');
    form.append('files', new Blob([b], { type: 'text/plain' }), 'note.txt');
    const res = await post('/api/flows/lead', s.token, form);
    expect(res.status).toBe(202);
    const record = await job(res.body.jobId);
    expect(record).toMatchObject({ contentType: 'multipart', sessionId: Number(s.sessionId), variables: { orderId: 'A-17', rush: false } });
    expect(record.files).toEqual([
      { name: 'invoice.pdf', mimeType: 'application/pdf', size: MAX_BYTES, md5: md5(a), fileUri: expect.any(String) },
      { name: 'note.txt', mimeType: 'text/plain', size: b.byteLength, md5: md5(b), fileUri: expect.any(String) },
    ]);
  });

  it('multipart variables of bad types and unknown parts are refused with 400', async () => {
    const s = await session();
    const before = (await jobs()).length;
    const bad = new FormData();
    bad.set('variables', JSON.stringify({ a: { b: 1 } }));
    expect((await post('/api/flows/lead', s.token, bad)).status).toBe(400);
    const unknown = new FormData();
    unknown.set('sessionId', '1');
    expect((await post('/api/flows/lead', s.token, unknown)).status).toBe(400);
    // Names Object has (constructor, __proto__ as text or a file) are unknown parts like any other: 400, never a 500.
    for (const name of ['constructor', 'hasOwnProperty', '__proto__']) {
      for (const value of ['x', new Blob(['x'])]) {
        const inherited = new FormData();
        inherited.set(name, value);
        const res = await post('/api/flows/lead', s.token, inherited);
        expect([name, res.status, res.body.error?.code]).toEqual([name, 400, 'invalid_request']);
      }
    }
    const json = await fetch(`${base}/api/flows/lead`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      body: '{"variables":{},"constructor":1}',
    });
    expect([json.status, ((await json.json()) as { error: { code: string } }).error.code]).toEqual([400, 'invalid_request']);
    expect(await jobs()).toHaveLength(before);
  });

  it('a multipart variables part is held to the JSON body rules: 413 past 64 KiB, 400 nested past 32, before it is parsed', async () => {
    const s = await session();
    const before = (await jobs()).length;
    const deep = new FormData();
    deep.set('variables', `{"a":${'['.repeat(40)}${']'.repeat(40)}}`);
    const nested = await post('/api/flows/lead', s.token, deep);
    expect([nested.status, nested.body.error.code, nested.body.error.message]).toEqual([400, 'invalid_request', '"variables" nests objects and arrays more than 32 deep']);
    const large = new FormData();
    large.set('variables', JSON.stringify({ a: 'x'.repeat(70_000) }));
    const big = await post('/api/flows/lead', s.token, large);
    expect([big.status, big.body.error.code]).toEqual([413, 'payload_too_large']);
    expect(await jobs()).toHaveLength(before);
  });

  it('flow runs share the conversation\'s message rate (RATE_LIMIT_MESSAGES_PER_MIN, 30): after 30 runs, a run and a message are both 429', async () => {
    const s = await session();
    const run = () => widget('POST', '/api/flows/lead', { token: s.token, body: { variables: {} } });
    for (let i = 0; i < 30; i++) expect((await run()).status).toBe(202);
    const over = await run();
    expect([over.status, over.body.error.code]).toEqual([429, 'rate_limited']);
    const message = await widget('POST', '/api/messages', { token: s.token, body: { text: 'and one more' } });
    expect(message.status).toBe(429);
  });
});

describe('POST /api/upload', () => {
  it('runs the upload flow in this conversation; the text is sent as a chat message, and the result arrives', async () => {
    const s = await session();
    const sse = await openSse(`${base}/api/events?token=${s.token}`);
    const file = png(1500);
    const form = new FormData();
    form.append('files', new Blob([file], { type: 'image/png' }), 'photo.png');
    // Multipart text fields travel with CRLF line breaks (as browsers send them); the chat shows \n.
    form.set('text', 'Here is the photo\r\nof the damage');
    form.set('clientId', 'up-1');
    const res = await post('/api/upload', s.token, form);
    expect(res.status).toBe(202);
    expect(typeof res.body.jobId).toBe('string');
    const record = await job(res.body.jobId);
    expect(record).toMatchObject({ flow: 'upload', sessionId: Number(s.sessionId), variables: {} });
    expect(record.files[0]).toMatchObject({ name: 'photo.png', size: 1500, md5: md5(file) });
    const text = await sse.next((e) => e.event === 'message' && JSON.parse(e.data).clientId === 'up-1');
    expect(JSON.parse(text.data)).toMatchObject({ role: 'user', text: 'Here is the photo\nof the damage' });
    const result = await sse.next((e) => e.event === 'message' && /^Received 1 file/.test(JSON.parse(e.data).text ?? ''));
    // Names and sizes for the customer, no checksum (the record above holds the md5).
    expect(JSON.parse(result.data).text).toBe('Received 1 file: photo.png (1.5 KB).');
    expect(Number(result.id)).toBeGreaterThan(Number(text.id));
    sse.close();
  });

  it('413 for a file over MAX_UPLOAD_BYTES or more than MAX_UPLOAD_FILES, and the flow saw nothing', async () => {
    const s = await session();
    const before = (await jobs()).length;
    const big = new FormData();
    big.append('files', new Blob([randomBytes(MAX_BYTES + 1)]), 'big.bin');
    const tooBig = await post('/api/upload', s.token, big);
    expect([tooBig.status, tooBig.body.error.code]).toEqual([413, 'payload_too_large']);
    const many = new FormData();
    for (const n of [1, 2, 3]) many.append('files', new Blob([`file ${n}`]), `f${n}.txt`);
    const tooMany = await post('/api/flows/lead', s.token, many);
    expect([tooMany.status, tooMany.body.error.code]).toEqual([413, 'payload_too_large']);
    const huge = new FormData();
    huge.append('files', new Blob([randomBytes(400 * 1024)]), 'huge.bin');
    expect((await post('/api/upload', s.token, huge)).status).toBe(413);
    expect(await jobs()).toHaveLength(before);
  });

  it('400 for a file name the operator would misread: a direction override, a control character, a path; the flow saw nothing', async () => {
    const s = await session();
    const before = (await jobs()).length;
    for (const name of ['invoice\u202Egpj.exe', 'a\u0007b.txt', '../../etc/passwd', 'x'.repeat(256)]) {
      const form = new FormData();
      form.append('files', new Blob(['content']), name);
      const res = await post('/api/upload', s.token, form);
      expect([name, res.status, res.body.error.code]).toEqual([name, 400, 'invalid_request']);
    }
    expect(await jobs()).toHaveLength(before);
  });

  it('415 file_type_not_accepted for a type UPLOAD_TYPES does not take, by name, declared type or bytes; the flow saw nothing', async () => {
    const s = await session();
    const before = (await jobs()).length;
    // What a Windows program starts with: "MZ", then its DOS header, and the PE header it points to.
    const exe = new Uint8Array(512);
    exe.set([0x4d, 0x5a, 0x90, 0x00, 0x03]);
    exe.set([0x80, 0, 0, 0], 0x3c);
    exe.set([0x50, 0x45, 0, 0], 0x80);
    const refused: Array<[Uint8Array<ArrayBuffer> | string, string, string]> = [
      [exe, 'setup.exe', 'application/x-msdownload'],
      [exe, 'invoice.pdf', 'application/pdf'], // a program renamed
      [exe, 'invoice.pdf', ''],
      ['%PDF-1.7\n', 'invoice.pdf', 'application/x-msdownload'], // the declared type counts too
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'logo.svg', 'image/svg+xml'],
      [png(200), 'notes.txt', 'text/plain'], // bytes of an image under a text name
      [new Uint8Array(randomBytes(300)), 'data.csv', 'text/csv'], // not text, of no known format
    ];
    for (const [bytes, name, type] of refused) {
      const form = new FormData();
      form.append('files', new Blob([bytes], { type }), name);
      form.set('text', 'here it is');
      const res = await post('/api/upload', s.token, form);
      expect([name, type, res.status, res.body.error?.code]).toEqual([name, type, 415, 'file_type_not_accepted']);
    }
    expect(await jobs()).toHaveLength(before);
    // The words of a refused upload were not sent either.
    const history = (await widget('GET', '/api/messages', { token: s.token })).body.items as Array<{ text?: string }>;
    expect(history.some((m) => m.text === 'here it is')).toBe(false);

    const taken: Array<[Uint8Array<ArrayBuffer> | string, string, string]> = [
      ['%PDF-1.7\n%âãÏÓ\n', 'invoice.pdf', 'application/pdf'],
      ['order,qty\nA-1,2\nÖl,3\n', 'order.csv', 'text/csv'],
      ['Plain words.\n', 'notes.txt', ''],
      [png(300), 'shot.PNG', 'application/octet-stream'],
    ];
    for (const [bytes, name, type] of taken) {
      const form = new FormData();
      form.append('files', new Blob([bytes], { type }), name);
      expect([name, (await post('/api/upload', s.token, form)).status]).toEqual([name, 202]);
    }
  });

  it('GET /api/config lists the types an upload may have, for the widget’s picker', async () => {
    const types = (await widget('GET', '/api/config')).body.limits.uploadTypes as string[];
    expect(types).toEqual(expect.arrayContaining(['application/pdf', '.pdf', 'image/png', '.png', 'text/csv', '.csv', '.docx']));
    expect(types.some((t) => /exe|svg|html/.test(t))).toBe(false);
  });

  it('refuses a declared Content-Length over the limit before reading the body', async () => {
    const s = await session();
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${base}/api/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, 'content-type': 'multipart/form-data; boundary=xyz', 'content-length': String(50 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      });
      req.on('error', reject);
      req.write('--xyz\r\n'); // a few bytes of the 50 MB promised; the answer must not wait for the rest
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).error.code).toBe('payload_too_large');
  });

  it('refuses JSON (415) and a form without files (400)', async () => {
    const s = await session();
    const json = await widget('POST', '/api/upload', { token: s.token, body: { text: 'hi' } });
    expect([json.status, json.body.error.code]).toEqual([415, 'unsupported_media_type']);
    const empty = new FormData();
    empty.set('text', 'no files');
    expect((await post('/api/upload', s.token, empty)).status).toBe(400);
  });

  it('403 feature_disabled when no UPLOAD_FLOW is set', async () => {
    const off = await startBff({ FLOW_TOKENS: `lead:${LEAD_TOKEN}` });
    try {
      const s = await call(off.url, 'POST', '/api/session', { body: { text: 'hi' } });
      const form = new FormData();
      form.append('files', new Blob(['x']), 'x.txt');
      const res = await fetch(`${off.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${s.body.token}` }, body: form });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe('feature_disabled');
      expect((await call(off.url, 'GET', '/api/config')).body.features).toMatchObject({ upload: false, flows: ['lead'] });
    } finally {
      await off.stop();
    }
  });
});

describe('an archived conversation', () => {
  it('refuses flows and uploads with 409 conversation_archived, as messages; the flow saw nothing', async () => {
    const s = await session();
    const sse = await openSse(`${base}/api/events?token=${s.token}`);
    expect((await widget('POST', '/api/archive', { token: s.token })).status).toBe(202);
    await sse.next((e) => e.event === 'archived');
    sse.close();
    const before = (await jobs()).length;
    const flow = await widget('POST', '/api/flows/lead', { token: s.token, body: { variables: {} } });
    expect([flow.status, flow.body.error.code]).toEqual([409, 'conversation_archived']);
    const form = new FormData();
    form.append('files', new File(['hello'], 'a.txt', { type: 'text/plain' }));
    const upload = await post('/api/upload', s.token, form);
    expect([upload.status, upload.body.error.code]).toEqual([409, 'conversation_archived']);
    expect((await jobs()).length).toBe(before);
  });
});

describe('secrecy and the test CLI', () => {
  it('no flow token appears in any response or log line', async () => {
    const config = await widget('GET', '/api/config');
    expect(config.body.features).toMatchObject({ upload: true, flows: ['lead'] });
    // Demo mode serves the simulated service on this very app, so its own access lines (paths under
    // /sim/, e.g. /sim/webhook/<token>) are the service's log, not the BFF's: they are left out.
    const lines = stdout.mock.calls.map((c) => String(c[0])).filter((line) => !line.includes('"path":"/sim/'));
    const logged = lines.join('');
    expect(logged).toContain('/api/flows/lead'); // the capture works: requests were logged
    for (const text of [...seen, logged]) {
      expect(text).not.toContain(LEAD_TOKEN);
      expect(text).not.toContain(UPLOAD_TOKEN);
    }
  });

  it('the flow simulator answers 404 for a token it does not know', async () => {
    const res = await call(base, 'POST', '/sim/webhook/not-a-token', { body: { data: {} } });
    expect([res.status, res.body.error.code]).toEqual([404, 'webhook_not_found']);
  });

  it('flow-test sends the sample payload to /webhook/test/{userId} and prints the jobId', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bff/src/cli/flow-test.ts', 'user-42', '--session', '7', '--var', 'express=false', '--base', `${base}/sim`], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    expect(await new Promise((r) => child.once('exit', r))).toBe(0);
    const jobId = /^jobId: (\S+)\n$/.exec(out)?.[1];
    expect(jobId).toBeDefined();
    expect(await job(jobId!)).toMatchObject({
      kind: 'test',
      userId: 'user-42',
      contentType: 'json',
      sessionId: 7,
      variables: { customerName: 'Ada Lovelace', orderTotal: 42.5, express: false },
      files: [{ name: 'sample.txt', mimeType: 'text/plain', size: 12, md5: createHash('md5').update('Hello, flow!').digest('hex') }],
    });
  });
});

describe('memory held by uploads in progress', () => {
  let tight: RunningServer;
  beforeAll(async () => {
    // Room for exactly one largest-possible upload (1 file × 2048 B + 256 KiB of form overhead).
    tight = await startBff({ FLOW_TOKENS: `upload:${UPLOAD_TOKEN}`, UPLOAD_FLOW: 'upload', MAX_UPLOAD_BYTES: '2048', MAX_UPLOAD_FILES: '1', MAX_UPLOAD_MEMORY_BYTES: String(2048 + 256 * 1024) });
  });
  afterAll(() => tight.stop());

  it('answers 429 with Retry-After while other uploads hold the memory, and takes uploads again once they end', async () => {
    const s = (await call(tight.url, 'POST', '/api/session', { body: { text: 'two uploads' } })).body as { token: string };
    const upload = async () => {
      const form = new FormData();
      form.append('files', new Blob(['small']), 'small.txt');
      return fetch(`${tight.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${s.token}` }, body: form });
    };
    // A slow upload holds what it has sent so far: here nearly all there is.
    let taken: IncomingMessage | undefined;
    tight.server.on('request', (req: IncomingMessage) => {
      if (req.headers['content-type']?.includes('boundary=xyz')) taken = req;
    });
    const slow = request(`${tight.url}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${s.token}`, 'content-type': 'multipart/form-data; boundary=xyz' } });
    const slowDone = new Promise<void>((resolve) => {
      slow.on('error', () => resolve());
      slow.on('close', () => resolve());
    });
    const sent = '--xyz\r\n' + 'y'.repeat(256 * 1024 + 2000);
    slow.write(sent);
    // The server has the request and has taken every byte of it from the socket (read, not waiting there).
    await until('the slow upload read', () => !!taken && taken.socket.bytesRead > sent.length && taken.readableLength === 0 && taken.socket.readableLength === 0);
    const busy = await upload();
    expect([busy.status, busy.headers.get('retry-after'), ((await busy.json()) as any).error.code]).toEqual([429, '5', 'rate_limited']);
    slow.destroy();
    await slowDone;
    await expect.poll(async () => (await upload()).status, { timeout: 5000 }).toBe(202);
  });
});
