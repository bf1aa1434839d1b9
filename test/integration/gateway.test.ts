import { describe, expect, it } from 'vitest';
import { HttpGateway } from '../../bff/src/adapters/http-gateway.js';
import { parseModels, saysCreditExhausted } from '../../bff/src/adapters/gateway-shapes.js';
import { checkModelAvailable } from '../../bff/src/chat/model-check.js';
import { ConfigError } from '../../bff/src/config.js';
import { createGatewaySimulator } from '../../demo/simulator/gateway.js';

const KEY = 'sk-test-gateway';

/** The gateway client wired straight to an in-process simulator (no port). */
function setup(options: { model?: string; region?: 'eu' | 'global'; apiKey?: string; fetch?: typeof fetch } = {}) {
  let seed = 7;
  const sim = createGatewaySimulator({ apiKey: KEY, chunkDelayMs: 0, random: () => ((seed = (seed * 16807) % 2147483647) / 2147483647) });
  const simFetch: typeof fetch = (input, init) => Promise.resolve(sim.fetch(new Request(input, init)));
  const gateway = new HttpGateway({
    baseUrl: 'http://gw.test',
    region: options.region ?? 'eu',
    apiKey: options.apiKey ?? KEY,
    model: options.model ?? 'mistral/mistral-small',
    policy: { retries: 2, timeoutMs: 2000, baseDelayMs: 1 },
    fetch: options.fetch ?? simFetch,
  });
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await sim.fetch(new Request(`http://gw.test${path}`, { method, ...(body !== undefined && { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }) }));
    return (await res.json()) as any;
  };
  const requests = async () => (await control('GET', '/__gateway/requests')).requests as Array<{ region: string; path: string; status: number; model?: string }>;
  return { sim, gateway, control, requests };
}

const user = (content: string) => ({ role: 'user' as const, content });

describe('HttpGateway against the gateway simulator', () => {
  it('lists the models of its region with their prices; the EU list lacks global-only models', async () => {
    const eu = setup();
    expect(eu.gateway.apiBase).toBe('http://gw.test/api/eu/v1');
    const models = await eu.gateway.listModels();
    const small = models.find((m) => m.id === 'mistral/mistral-small');
    expect(small?.prices).toMatchObject({ input: expect.any(Number), output: expect.any(Number), currency: 'EUR' });
    expect(models.map((m) => m.id)).not.toContain('openai/gpt-4o');
    const global = setup({ region: 'global' });
    expect(global.gateway.apiBase).toBe('http://gw.test/api/v1');
    expect((await global.gateway.listModels()).map((m) => m.id)).toContain('openai/gpt-4o');
    expect((await global.requests()).every((r) => r.region === 'global')).toBe(true);
  });

  it('chatCompletion returns choices[0].message.content; the stream yields the same text in pieces', async () => {
    const { gateway } = setup();
    const text = await gateway.chatCompletion({ messages: [user('a'), { role: 'assistant', content: 'b' }, user('c')], maxTokens: 500 });
    expect(text).toContain("you've sent 2 messages");
    const deltas: string[] = [];
    for await (const d of gateway.streamChatCompletion({ messages: [user('a'), { role: 'assistant', content: 'b' }, user('c')], maxTokens: 500 })) deltas.push(d);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(text);
  });

  it('451 is final: one request, to the configured region only, for the configured model only', async () => {
    const { gateway, requests } = setup({ model: 'openai/gpt-4o' });
    await expect(gateway.chatCompletion({ messages: [user('hi')] })).rejects.toMatchObject({ code: 'model_unavailable_in_region', upstreamStatus: 451 });
    const seen = await requests();
    expect(seen).toEqual([expect.objectContaining({ region: 'eu', path: '/chat/completions', status: 451, model: 'openai/gpt-4o' })]);
  });

  it('exhausted credit (402) is budget_exhausted and is not retried', async () => {
    const { gateway, control, requests } = setup();
    await control('POST', '/__gateway/credit', { remaining: 0 });
    const consume = async () => {
      for await (const _ of gateway.streamChatCompletion({ messages: [user('hi')] })) void _;
    };
    await expect(consume()).rejects.toMatchObject({ code: 'budget_exhausted' });
    expect((await requests()).map((r) => r.status)).toEqual([402]);
  });

  it('a 429 whose body says the quota is used up is budget_exhausted at once, a plain 429 is retried', async () => {
    let calls = 0;
    const quota: typeof fetch = async () => {
      calls++;
      return new Response(JSON.stringify({ error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } }), { status: 429 });
    };
    await expect(setup({ fetch: quota }).gateway.chatCompletion({ messages: [user('hi')] })).rejects.toMatchObject({ code: 'budget_exhausted' });
    expect(calls).toBe(1);

    const { gateway, control, requests } = setup();
    await control('POST', '/__gateway/faults', { status: 429, count: 2, retryAfter: 0 });
    expect(await gateway.chatCompletion({ messages: [user('hi')] })).toContain('1 message');
    expect((await requests()).map((r) => r.status)).toEqual([429, 429, 200]);
  });

  it('a refused key is retried, then reported without the upstream body', async () => {
    const { gateway, requests } = setup({ apiKey: 'wrong' });
    await expect(gateway.listModels()).rejects.toMatchObject({ code: 'upstream_error', message: 'The gateway refused the API key', upstreamStatus: 401 });
    expect((await requests()).map((r) => r.status)).toEqual([401, 401, 401]);
  });

  it('embeddings are deterministic unit vectors; responses returns output text', async () => {
    const { gateway } = setup();
    const [a] = await gateway.embeddings('hello', 'mistral/mistral-embed');
    const [b] = await gateway.embeddings('hello', 'mistral/mistral-embed');
    const [c] = await gateway.embeddings('other', 'mistral/mistral-embed');
    expect(a).toHaveLength(256);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    expect(Math.hypot(...a!)).toBeCloseTo(1, 3);
    expect(await gateway.responses({ input: 'Hi there' })).toContain('Hi there');
  });
});

describe('start-up check', () => {
  it('refuses a model the region does not list, with one line naming variable, model and region', async () => {
    const err = await checkModelAvailable(setup({ model: 'openai/gpt-4o' }).gateway).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toHaveLength(1);
    expect((err as ConfigError).problems[0]).toMatch(/^GATEWAY_MODEL openai\/gpt-4o is not available in region eu\b/);
    await expect(checkModelAvailable(setup({ model: 'openai/gpt-4o', region: 'global' }).gateway)).resolves.toBeUndefined();
  });

  it('names the key when the gateway refuses it', async () => {
    const err = (await checkModelAvailable(setup({ apiKey: 'nope' }).gateway).catch((e: unknown) => e)) as ConfigError;
    expect(err.problems[0]).toMatch(/^GATEWAY_API_KEY was refused/);
    expect(err.problems[0]).not.toContain('nope');
  });
});

describe('tolerant shapes', () => {
  it('reads models from a bare array, {models}, strings, and several price spellings', () => {
    expect(parseModels([{ id: 'a/b', input_price: 1, output_price: 2 }, 'c/d'])).toEqual([
      { id: 'a/b', prices: { input_price: 1, output_price: 2 }, details: {} },
      { id: 'c/d', prices: {}, details: {} },
    ]);
    expect(parseModels({ models: [{ name: 'x/y', price: { prompt: '0.1', completion: '0.2' }, owned_by: 'x' }] })).toEqual([
      { id: 'x/y', prices: { prompt: '0.1', completion: '0.2' }, details: { owned_by: 'x' } },
    ]);
    expect(parseModels({ data: [{ id: 'p/q', pricing: { eu: { input: 1 } } }] })[0]!.prices).toEqual({ 'eu.input': 1 });
    expect(parseModels({ nothing: true })).toEqual([]);
  });

  it('tells exhausted credit from a rate limit', () => {
    expect(saysCreditExhausted('{"error":{"code":"insufficient_quota"}}')).toBe(true);
    expect(saysCreditExhausted('{"error":{"message":"Your credit balance is exhausted"}}')).toBe(true);
    expect(saysCreditExhausted('{"error":{"message":"Rate limit reached for requests per minute","type":"rate_limit_exceeded"}}')).toBe(false);
    expect(saysCreditExhausted('Too Many Requests')).toBe(false);
  });
});
