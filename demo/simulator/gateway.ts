import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { errorResponse, readJsonObject, SimError } from './errors.js';
import { FaultInjector, type FaultSpec } from './faults.js';
import { sameOriginOnly } from './same-origin.js';

export interface GatewaySimulatorOptions {
  /** The one API key accepted as `Authorization: Bearer …` (else 401). */
  apiKey: string;
  random?: () => number;
  /** Prepaid credit of the key in tokens; unset means unlimited. `POST /__gateway/credit` changes it. */
  credit?: number;
  /** Pause between streamed chunks, so the demo visibly streams (default 25 ms). */
  chunkDelayMs?: number;
}

type Region = 'eu' | 'global';
type Turn = { role: string; content: string };

interface ModelEntry {
  id: string;
  kind: 'chat' | 'embedding';
  regions: Set<Region>;
  /** Euro per million tokens in the global region; EU is listed 10 % higher. */
  input: number;
  output: number;
  contextLength: number;
}

/** One call as the simulator saw it; tests read these through `GET /__gateway/requests`. */
export interface GatewayRequestRecord {
  region: Region;
  method: string;
  path: string;
  status?: number;
  model?: string;
  stream?: boolean;
  maxTokens?: number;
  messages?: Turn[];
  /** Streamed calls: SSE frames written so far. */
  framesSent?: number;
  /** Streamed calls: the client closed the stream before its end (e.g. the visitor pressed Stop). */
  closedByClient?: boolean;
}

const CATALOG: Array<Omit<ModelEntry, 'regions'> & { regions: Region[] }> = [
  { id: 'mistral/mistral-small', kind: 'chat', regions: ['eu', 'global'], input: 0.2, output: 0.6, contextLength: 32_000 },
  { id: 'mistral/mistral-large', kind: 'chat', regions: ['eu', 'global'], input: 2, output: 6, contextLength: 128_000 },
  { id: 'meta/llama-3.1-70b', kind: 'chat', regions: ['eu', 'global'], input: 0.9, output: 0.9, contextLength: 128_000 },
  { id: 'openai/gpt-4o', kind: 'chat', regions: ['global'], input: 2.5, output: 10, contextLength: 128_000 },
  { id: 'openai/gpt-4o-mini', kind: 'chat', regions: ['global'], input: 0.15, output: 0.6, contextLength: 128_000 },
  { id: 'mistral/mistral-embed', kind: 'embedding', regions: ['eu', 'global'], input: 0.1, output: 0, contextLength: 8_000 },
];
const EMBEDDING_DIMENSIONS = 256;
const LOG_SIZE = 500;

/**
 * Simulator of the model gateway (area A) under `/api/eu/v1` and `/api/v1`: models with prices
 * per region, chat completions (plain and streamed in the OpenAI chunk format), responses and
 * embeddings, `451` for a model outside the EU on the EU base, `402` once the key's credit is
 * used up, injectable faults (e.g. 429 with Retry-After) and bearer checks. The reply is scripted
 * and counts the user messages it was sent, so tests can see that history is resent.
 */
export function createGatewaySimulator(options: GatewaySimulatorOptions): Hono {
  if (!options.apiKey) throw new Error('createGatewaySimulator: "apiKey" is required');
  const random = options.random ?? Math.random;
  const models = new Map(CATALOG.map((m) => [m.id, { ...m, regions: new Set(m.regions) }]));
  const log: GatewayRequestRecord[] = [];
  const faults = new FaultInjector();
  let credit: number | null = options.credit ?? null;
  let chunkDelayMs = options.chunkDelayMs ?? 25;

  const app = new Hono();
  app.onError(errorResponse);
  app.use('/__gateway/*', sameOriginOnly);

  // Test and demo controls, without auth like the agent simulator's `/__faults`.
  app.get('/__gateway/requests', (c) => c.json({ requests: log }));
  app.delete('/__gateway/requests', (c) => (log.splice(0), c.json({ requests: [] })));
  app.get('/__gateway/credit', (c) => c.json({ remaining: credit }));
  app.post('/__gateway/credit', async (c) => {
    const { remaining } = await readJsonObject(c);
    if (remaining !== null && !(typeof remaining === 'number' && Number.isFinite(remaining))) throw new SimError(400, 'invalid_request', '"remaining" must be a number of tokens, or null for unlimited');
    credit = remaining;
    return c.json({ remaining: credit });
  });
  app.post('/__gateway/faults', async (c) => (faults.add((await readJsonObject(c)) as FaultSpec), c.json({ faults: faults.list() }, 201)));
  app.delete('/__gateway/faults', (c) => (faults.clear(), c.json({ faults: [] })));
  app.post('/__gateway/pace', async (c) => {
    const { chunkDelayMs: ms } = await readJsonObject(c);
    if (!(typeof ms === 'number' && Number.isInteger(ms) && ms >= 0 && ms <= 5000)) throw new SimError(400, 'invalid_request', '"chunkDelayMs" must be 0 to 5000');
    chunkDelayMs = ms;
    return c.json({ chunkDelayMs });
  });
  /** Moves a model between regions at run time (e.g. `{id, regions: ["global"]}` makes EU answer 451). */
  app.post('/__gateway/models', async (c) => {
    const body = await readJsonObject(c);
    const entry = typeof body.id === 'string' ? models.get(body.id) : undefined;
    const regions = body.regions;
    if (!entry || !Array.isArray(regions) || !regions.every((r) => r === 'eu' || r === 'global')) throw new SimError(400, 'invalid_request', 'Send {id: <a listed model>, regions: ["eu"|"global", …]}');
    entry.regions = new Set(regions as Region[]);
    return c.json({ id: entry.id, regions: [...entry.regions] });
  });

  for (const [prefix, region] of [['/api/eu/v1', 'eu'], ['/api/v1', 'global']] as const) {
    const api = new Hono<{ Variables: { rec: GatewayRequestRecord } }>();
    api.onError(errorResponse);
    api.use('*', async (c, next) => {
      const rec: GatewayRequestRecord = { region, method: c.req.method, path: c.req.path.slice(c.req.path.indexOf(prefix) + prefix.length) };
      log.push(rec);
      if (log.length > LOG_SIZE) log.shift();
      c.set('rec', rec);
      try {
        await next();
      } finally {
        rec.status = c.res.status;
      }
    });
    api.use('*', faults.middleware());
    api.use('*', async (c, next) => {
      if (c.req.header('authorization') !== `Bearer ${options.apiKey}`) {
        return c.json({ error: { message: 'Invalid or missing API key', type: 'invalid_request_error', code: 'invalid_api_key' } }, 401);
      }
      await next();
    });

    api.get('/models', (c) =>
      c.json({
        object: 'list',
        data: [...models.values()]
          .filter((m) => m.regions.has(region))
          .map((m) => ({
            id: m.id,
            object: 'model',
            owned_by: m.id.split('/')[0],
            type: m.kind,
            context_length: m.contextLength,
            pricing: { currency: 'EUR', unit: '1M tokens', input: price(m.input, region), output: price(m.output, region) },
          })),
      }),
    );

    api.post('/chat/completions', async (c) => {
      const body = await readJsonObject(c);
      const rec = c.get('rec');
      // Recorded before any check, so tests see what a refused call asked for.
      const messages = turns(body.messages, 'messages');
      Object.assign(rec, { model: typeof body.model === 'string' ? body.model : undefined, messages, stream: body.stream === true, ...(typeof body.max_tokens === 'number' ? { maxTokens: body.max_tokens } : {}) });
      const model = callable(body.model, region, 'chat');
      charge(messages);
      const { text, finish } = scripted(messages, rec.maxTokens);
      spend(text);
      const id = `chatcmpl-${Math.floor(random() * 1e12).toString(36)}`;
      const created = Math.floor(Date.now() / 1000);
      const usage = { prompt_tokens: tokens(messages.map((m) => m.content).join(' ')), completion_tokens: tokens(text) };
      if (body.stream !== true) {
        return c.json({ id, object: 'chat.completion', created, model: model.id, choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: finish }], usage });
      }
      const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [{ index: 0, delta, finish_reason: finishReason }] })}\n\n`;
      const frames = [chunk({ role: 'assistant', content: '' }, null), ...(text.match(/\S+\s*/g) ?? []).map((w) => chunk({ content: w }, null)), chunk({}, finish), 'data: [DONE]\n\n'];
      return sseResponse(frames, () => chunkDelayMs, random, rec);
    });

    api.post('/responses', async (c) => {
      const body = await readJsonObject(c);
      const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : turns(body.input, 'input');
      Object.assign(c.get('rec'), { model: typeof body.model === 'string' ? body.model : undefined, messages: input });
      const model = callable(body.model, region, 'chat');
      charge(input);
      const { text } = scripted(input, typeof body.max_output_tokens === 'number' ? body.max_output_tokens : undefined);
      spend(text);
      return c.json({ id: `resp_${Math.floor(random() * 1e12).toString(36)}`, object: 'response', model: model.id, output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] }], output_text: text });
    });

    api.post('/embeddings', async (c) => {
      const body = await readJsonObject(c);
      c.get('rec').model = typeof body.model === 'string' ? body.model : undefined;
      const model = callable(body.model, region, null);
      const inputs = typeof body.input === 'string' ? [body.input] : Array.isArray(body.input) && body.input.every((s) => typeof s === 'string') ? (body.input as string[]) : undefined;
      if (!inputs || inputs.length === 0) throw new SimError(400, 'invalid_request', '"input" must be a string or an array of strings');
      charge(inputs.map((content) => ({ role: 'user', content })));
      return c.json({ object: 'list', model: model.id, data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(model.id, text) })) });
    });

    app.route(prefix, api);
  }
  return app;

  /** 404 for an unknown model, 451 for a known one not offered on this regional base. */
  function callable(id: unknown, region: Region, kind: ModelEntry['kind'] | null): ModelEntry {
    const model = typeof id === 'string' ? models.get(id) : undefined;
    if (!model) throw new SimError(404, 'model_not_found', `Unknown model; expected <provider>/<model> from /models`);
    if (!model.regions.has(region)) throw new SimError(region === 'eu' ? 451 : 404, 'model_unavailable_in_region', `Model ${model.id} is not available in the ${region === 'eu' ? 'EU' : 'global'} region`);
    if (kind && model.kind !== kind) throw new SimError(400, 'invalid_request', `Model ${model.id} is not a ${kind} model`);
    return model;
  }

  /** Refuses (402) once the credit is used up; the service never substitutes a cheaper model. */
  function charge(messages: Turn[]): void {
    if (credit !== null && credit <= 0) throw new SimError(402, 'insufficient_quota', 'The prepaid credit of this key is exhausted');
    spend(messages.map((m) => m.content).join(' '));
  }
  function spend(text: string): void {
    if (credit !== null) credit -= tokens(text);
  }
}

function turns(value: unknown, field: string): Turn[] {
  if (!Array.isArray(value) || value.length === 0) throw new SimError(400, 'invalid_request', `"${field}" must be a non-empty array`);
  return value.map((m) => {
    if (typeof m !== 'object' || m === null || typeof (m as Turn).role !== 'string' || typeof (m as Turn).content !== 'string') {
      throw new SimError(400, 'invalid_request', `Each of "${field}" needs a string "role" and "content"`);
    }
    return { role: (m as Turn).role, content: (m as Turn).content };
  });
}

/** The friendly scripted answer; it names the number of user messages it was sent. */
function scripted(messages: Turn[], maxTokens: number | undefined): { text: string; finish: 'stop' | 'length' } {
  const users = messages.filter((m) => m.role === 'user');
  const last = users[users.length - 1]?.content.trim() ?? '';
  const quoted = last.length > 80 ? `${last.slice(0, 77)}…` : last;
  const n = users.length;
  const text =
    `Thanks — you've sent ${n} message${n === 1 ? '' : 's'} in this conversation. ` +
    `You said: “${quoted}”. I'm the simulated model gateway, so my answers are scripted, but your history reached me intact. What else can I do for you?`;
  if (maxTokens !== undefined && tokens(text) > maxTokens) return { text: text.slice(0, Math.max(1, maxTokens * 4)), finish: 'length' };
  return { text, finish: 'stop' };
}

/** Streams SSE frames, each cut at a random byte so clients must handle any chunk boundary. */
function sseResponse(frames: string[], delayMs: () => number, random: () => number, rec: GatewayRequestRecord): Response {
  const encoder = new TextEncoder();
  const pieces: Uint8Array[] = [];
  for (const frame of frames) {
    const bytes = encoder.encode(frame);
    const cut = 1 + Math.floor(random() * (bytes.length - 1));
    pieces.push(bytes.subarray(0, cut), bytes.subarray(cut));
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  rec.framesSent = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = pieces.shift();
      if (!next) return controller.close();
      if (pieces.length % 2 === 1 && delayMs() > 0) await new Promise((r) => (timer = setTimeout(r, delayMs())));
      controller.enqueue(next);
      if (pieces.length % 2 === 0) rec.framesSent!++;
    },
    cancel: () => {
      clearTimeout(timer);
      rec.closedByClient = true;
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' } });
}

function price(globalPrice: number, region: Region): number {
  return Math.round(globalPrice * (region === 'eu' ? 1.1 : 1) * 1000) / 1000;
}

function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** A unit vector derived from the text's hash: the same text always gives the same vector. */
function embed(model: string, text: string): number[] {
  let seed = createHash('sha256').update(`${model}\n${text}`).digest().readUInt32LE(0) || 1;
  const v = Array.from({ length: EMBEDDING_DIMENSIONS }, () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return ((seed >>> 0) / 0xffffffff) * 2 - 1;
  });
  const norm = Math.hypot(...v);
  return v.map((x) => Math.round((x / norm) * 1e6) / 1e6);
}
