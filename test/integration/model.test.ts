import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../bff/src/config.js';
import type { RunningServer } from '../../bff/src/server.js';
import { call, startBff } from '../helpers/bff.js';
import { openSse, type SseClient, type SseEvent } from '../helpers/sse.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KEY = 'sk-model-test-key';
const SYSTEM = 'You are the Nimbus Outfitters helper.';

let bff: RunningServer;
let base: string;

interface GatewayRecord {
  region: 'eu' | 'global';
  path: string;
  status: number;
  model?: string;
  maxTokens?: number;
  messages?: Array<{ role: string; content: string }>;
}

const sim = (method: string, path: string, body?: unknown) => call(base, method, `/sim/__gateway${path}`, body === undefined ? {} : { body });
const chatRequests = async () => ((await sim('GET', '/requests')).body.requests as GatewayRecord[]).filter((r) => r.path === '/chat/completions');
const data = (e: SseEvent) => JSON.parse(e.data);
const isBot = (e: SseEvent) => e.event === 'message' && data(e).role === 'bot';

beforeAll(async () => {
  bff = await startBff({
    CHAT_MODE: 'model',
    GATEWAY_API_KEY: KEY,
    GATEWAY_SYSTEM_PROMPT: SYSTEM,
    GATEWAY_MAX_HISTORY: '3',
    GATEWAY_MAX_TOKENS: '300',
    USER_VARIABLES: 'plan',
    ESCALATION_OPERATOR_EMAIL: 'ops@nimbus.example',
  });
  base = bff.url;
});
afterAll(() => bff.stop());

beforeEach(async () => {
  await sim('DELETE', '/faults');
  await sim('POST', '/credit', { remaining: null });
  await sim('POST', '/models', { id: 'mistral/mistral-small', regions: ['eu', 'global'] });
  await sim('POST', '/pace', { chunkDelayMs: 2 });
  await sim('DELETE', '/requests');
});

async function converse(text: string, clientId?: string): Promise<{ token: string; sessionId: string; sse: SseClient }> {
  const res = await call(base, 'POST', '/api/session', { body: { text, ...(clientId ? { clientId } : {}) } });
  expect(res.status).toBe(201);
  const sse = await openSse(`${base}/api/events?token=${res.body.token}`);
  return { token: res.body.token, sessionId: res.body.sessionId, sse };
}

/** Sends a message and resolves with the next bot message (the nth overall). */
async function say(c: { token: string; sse: SseClient }, text: string): Promise<SseEvent> {
  const before = c.sse.events.filter(isBot).length;
  expect((await call(base, 'POST', '/api/messages', { token: c.token, body: { text } })).status).toBe(202);
  return c.sse.next((e) => isBot(e) && c.sse.events.filter(isBot).indexOf(e) === before, 10_000);
}

describe('model mode', () => {
  it('public config says model mode, without escalation', async () => {
    const res = await call(base, 'GET', '/api/config');
    expect(res.body).toMatchObject({ mode: 'model', features: { escalation: false } });
    expect(JSON.stringify(res.body)).not.toContain(KEY);
    // The demo greets in every shipped language without suggesting badges a model cannot send.
    expect(Object.keys(res.body.greeting)).toEqual(['en', 'de', 'fr', 'ar', 'he']);
    for (const text of Object.values(res.body.greeting as Record<string, string>)) expect(text).not.toMatch(/carousel|buttons|card/i);
  });

  it('streams message_delta events, then the final message with the same id and the whole text', async () => {
    const c = await converse('Hello model', 'c-1');
    expect(c.sessionId).toMatch(/^m_[0-9a-f]+$/);
    const final = await c.sse.next(isBot, 10_000);
    const user = c.sse.events.find((e) => e.event === 'message' && data(e).role === 'user')!;
    expect(data(user)).toMatchObject({ role: 'user', text: 'Hello model', clientId: 'c-1' });
    const deltas = c.sse.events.filter((e) => e.event === 'message_delta');
    expect(deltas.length).toBeGreaterThanOrEqual(1);
    expect(new Set(deltas.map((e) => data(e).id))).toEqual(new Set([data(final).id]));
    expect(deltas.every((e) => Number(e.id) > Number(user.id) && Number(e.id) < Number(final.id))).toBe(true);
    expect(deltas.map((e) => data(e).delta).join('')).toBe(data(final).text);
    expect(data(final).text).toContain("you've sent 1 message ");
    c.sse.close();
  });

  it('coalesces the gateway chunks into fewer deltas', async () => {
    await sim('POST', '/pace', { chunkDelayMs: 0 });
    const c = await converse('Quick one');
    const final = await c.sse.next(isBot, 10_000);
    const words = data(final).text.split(' ').length;
    const deltas = c.sse.events.filter((e) => e.event === 'message_delta').length;
    expect(deltas).toBeLessThan(words / 2);
    c.sse.close();
  });

  it('resends the history on every turn, the system prompt first, with max_tokens', async () => {
    const c = await converse('First question');
    const first = await c.sse.next(isBot, 10_000);
    const second = await say(c, 'Second question');
    expect(data(second).text).toContain("you've sent 2 messages");
    const [, last] = await chatRequests();
    expect(last!.messages).toEqual([
      { role: 'system', content: SYSTEM },
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: data(first).text },
      { role: 'user', content: 'Second question' },
    ]);
    expect(last!.maxTokens).toBe(300);
    expect(last!.model).toBe('mistral/mistral-small');
    c.sse.close();
  });

  it('caps the resent history at GATEWAY_MAX_HISTORY messages (system prompt aside)', async () => {
    const c = await converse('one');
    await c.sse.next(isBot, 10_000);
    await say(c, 'two');
    await say(c, 'three');
    const fourth = await say(c, 'four');
    const last = (await chatRequests()).pop()!;
    expect(last.messages!.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(last.messages!.map((m) => m.content).filter((_, i) => i !== 2)).toEqual([SYSTEM, 'three', 'four']);
    expect(data(fourth).text).toContain("you've sent 2 messages");
    c.sse.close();
  });

  it('a message sent while a reply streams waits its turn, and its history pairs each answer with its question', async () => {
    await sim('POST', '/pace', { chunkDelayMs: 15 });
    const c = await converse('Alpha');
    await c.sse.next((e) => e.event === 'message_delta', 5000);
    expect((await call(base, 'POST', '/api/messages', { token: c.token, body: { text: 'Beta' } })).status).toBe(202);
    expect((await call(base, 'POST', '/api/messages', { token: c.token, body: { text: 'Gamma' } })).status).toBe(202);
    await c.sse.next((e) => isBot(e) && data(e).text.includes('Gamma'), 15_000);
    const bots = c.sse.events.filter(isBot).map(data);
    expect(bots.map((b) => b.text.match(/You said: “(\w+)”/)![1])).toEqual(['Alpha', 'Beta', 'Gamma']);
    // Deltas of one reply never interleave with another's: each reply's deltas end before the next starts.
    const order = c.sse.events.filter((e) => e.event === 'message_delta' || isBot(e)).map((e) => data(e).id);
    const firstIndex = (id: string) => order.indexOf(id);
    expect(firstIndex(bots[1].id)).toBeGreaterThan(order.lastIndexOf(bots[0].id));
    expect(firstIndex(bots[2].id)).toBeGreaterThan(order.lastIndexOf(bots[1].id));
    // Gamma was stored before Beta's answer; the history still reads question, answer, question (capped at 3).
    const third = (await chatRequests()).pop()!;
    expect(third.messages!.slice(1).map((m) => `${m.role}:${m.content.slice(0, 6)}`)).toEqual(['user:Beta', 'assistant:Thanks', 'user:Gamma']);
    expect(third.messages![2]!.content).toBe(bots[1].text);
    c.sse.close();
  });

  it('GET /api/messages pages the stored messages, newest page first, items oldest first', async () => {
    const c = await converse('page one');
    await c.sse.next(isBot, 10_000);
    await say(c, 'page two');
    const page = await call(base, 'GET', '/api/messages?limit=3&offset=0', { token: c.token });
    expect(page.body).toMatchObject({ limit: 3, offset: 0, hasMore: true });
    expect(page.body.items.map((m: any) => m.role)).toEqual(['bot', 'user', 'bot']);
    expect(page.body.items[1].text).toBe('page two');
    const older = await call(base, 'GET', '/api/messages?limit=3&offset=3', { token: c.token });
    expect(older.body.items.map((m: any) => m.text)).toEqual(['page one']);
    expect(older.body.hasMore).toBe(false);
    c.sse.close();
  });

  it('escalation is off (403); variables and archive become stream events; an archived chat refuses messages', async () => {
    const c = await converse('hi');
    await c.sse.next(isBot, 10_000);
    const esc = await call(base, 'POST', '/api/escalate', { token: c.token });
    expect([esc.status, esc.body.error.code]).toEqual([403, 'feature_disabled']);
    expect((await call(base, 'PATCH', '/api/user', { token: c.token, body: { plan: 'pro' } })).status).toBe(204);
    expect(data(await c.sse.next((e) => e.event === 'variables'))).toEqual({ name: 'plan', value: 'pro' });
    expect((await call(base, 'POST', '/api/archive', { token: c.token })).status).toBe(202);
    await c.sse.next((e) => e.event === 'archived');
    const after = await call(base, 'POST', '/api/messages', { token: c.token, body: { text: 'still there?' } });
    expect([after.status, after.body.error.code]).toEqual([409, 'conversation_archived']);
    c.sse.close();
  });
});

describe('model mode failures', () => {
  it('a 451 at run time becomes model_unavailable_in_region; nothing is sent to the other region or for another model', async () => {
    await sim('POST', '/models', { id: 'mistral/mistral-small', regions: ['global'] });
    const c = await converse('Are you there?');
    const err = await c.sse.next((e) => e.event === 'error', 10_000);
    // `replyTo` names the question whose reply failed.
    const question = c.sse.events.find((e) => e.event === 'message' && data(e).role === 'user')!;
    expect(data(err)).toEqual({ code: 'model_unavailable_in_region', message: expect.stringMatching(/not available in its region/), replyTo: data(question).id });
    const all = (await sim('GET', '/requests')).body.requests as GatewayRecord[];
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ region: 'eu', path: '/chat/completions', status: 451, model: 'mistral/mistral-small' });
    expect(c.sse.events.some(isBot)).toBe(false);
    c.sse.close();
  });

  it('exhausted credit becomes budget_exhausted, without retries', async () => {
    await sim('POST', '/credit', { remaining: 0 });
    const c = await converse('Anything left?');
    const err = await c.sse.next((e) => e.event === 'error', 10_000);
    expect(data(err)).toEqual({ code: 'budget_exhausted', message: expect.stringMatching(/budget/i), replyTo: expect.stringMatching(/^u_/) });
    expect((await chatRequests()).map((r) => r.status)).toEqual([402]);
    c.sse.close();
  });

  it('retries after 429, waiting as Retry-After says, then answers', async () => {
    await sim('POST', '/faults', { status: 429, count: 2, retryAfter: 1 });
    const started = Date.now();
    const c = await converse('Busy?');
    const bot = await c.sse.next(isBot, 15_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect((await chatRequests()).map((r) => r.status)).toEqual([429, 429, 200]);
    expect(data(bot).text).toContain("you've sent 1 message");
    expect(c.sse.events.some((e) => e.event === 'error')).toBe(false);
    c.sse.close();
  });

  it('once the retries are spent, the stream gets a clear upstream_unavailable error', async () => {
    await sim('POST', '/faults', { status: 503, count: 10, retryAfter: 0 });
    const c = await converse('Still busy?');
    const err = await c.sse.next((e) => e.event === 'error', 15_000);
    expect(data(err)).toEqual({ code: 'upstream_unavailable', message: expect.stringMatching(/busy/), replyTo: expect.stringMatching(/^u_/) });
    expect((await chatRequests()).map((r) => r.status)).toEqual([503, 503, 503, 503]); // 1 + UPSTREAM_RETRIES (3)
    c.sse.close();
  });
});

describe('start-up', () => {
  it('refuses a model the region does not list (EU: openai/gpt-4o) with one clear line', async () => {
    const err = await startBff({ CHAT_MODE: 'model', GATEWAY_MODEL: 'openai/gpt-4o' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual([expect.stringMatching(/^GATEWAY_MODEL openai\/gpt-4o is not available in region eu\b/)]);
  });

  it('the process prints "Configuration error: GATEWAY_MODEL … is not available in region eu" and exits 1', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'demo/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', CHAT_MODE: 'model', GATEWAY_MODEL: 'openai/gpt-4o', UPSTREAM_BASE_URL: '', GATEWAY_BASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^Configuration error: GATEWAY_MODEL openai\/gpt-4o is not available in region eu\b/)]);
  });

  it('the same model starts and answers in the global region, with every call on /api/v1', async () => {
    const global = await startBff({ CHAT_MODE: 'model', GATEWAY_REGION: 'global', GATEWAY_MODEL: 'openai/gpt-4o' });
    try {
      const s = await call(global.url, 'POST', '/api/session', { body: { text: 'hi' } });
      const sse = await openSse(`${global.url}/api/events?token=${s.body.token}`);
      await sse.next(isBot, 10_000);
      const all = (await call(global.url, 'GET', '/sim/__gateway/requests')).body.requests as GatewayRecord[];
      sse.close();
      expect(all.map((r) => `${r.region} ${r.path}`)).toEqual(['global /models', 'global /chat/completions']);
    } finally {
      await global.stop();
    }
  });
});

describe('gateway CLI', () => {
  const cli = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ['--import', 'tsx', 'bff/src/cli/gateway.ts', ...args], {
        cwd: ROOT,
        env: { ...process.env, GATEWAY_BASE_URL: `${base}/sim`, GATEWAY_API_KEY: KEY, GATEWAY_MODEL: 'mistral/mistral-small', GATEWAY_REGION: 'eu', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.once('exit', (code) => resolve({ code, stdout, stderr }));
    });

  it('models, chat and embed work; errors are one clear line', async () => {
    const [models, chat, embed, refused, noKey] = await Promise.all([
      cli(['models']),
      cli(['chat', 'Hello from the CLI']),
      cli(['embed', 'hello'], { GATEWAY_MODEL: 'mistral/mistral-embed' }),
      cli(['chat', 'hi'], { GATEWAY_MODEL: 'openai/gpt-4o' }),
      cli(['models'], { GATEWAY_API_KEY: '' }),
    ]);
    expect(models.code).toBe(0);
    expect(models.stdout).toMatch(/^mistral\/mistral-small\s+.*input=[\d.]+ output=[\d.]+/m);
    expect(models.stdout).not.toContain('openai/gpt-4o');
    expect(chat.code).toBe(0);
    expect(chat.stdout).toContain('You said: “Hello from the CLI”');
    expect(embed.code).toBe(0);
    expect(embed.stdout).toMatch(/^dimension 256\nfirst values( -?\d\.\d{6}){8}\n$/);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^gateway: The model openai\/gpt-4o is not available in the EU region \(status 451\) \[model_unavailable_in_region\]\n$/);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/GATEWAY_API_KEY/);
  });
});
