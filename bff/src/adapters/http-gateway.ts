import { UpstreamError } from '../errors.js';
import { failureOf, fetchWithRetry, readJson, type RetryPolicy } from '../lib/http-retry.js';
import type { ChatTurn, CompletionRequest, ModelGateway } from '../ports/gateway.js';
import type { Observer } from '../ports/observer.js';
import { completionText, embeddingVectors, parseModels, responsesText, saysCreditExhausted, type ModelInfo } from './gateway-shapes.js';
import { readChatStream } from './gateway-stream.js';

export type { ModelInfo } from './gateway-shapes.js';

export interface HttpGatewayOptions {
  /** The service host (`GATEWAY_BASE_URL`, else `UPSTREAM_BASE_URL`), without the `/api/...` part. */
  baseUrl: string;
  region: 'eu' | 'global';
  apiKey: string;
  /** `<provider>/<model>`; the only model this client ever asks for (no silent substitution). */
  model: string;
  policy: RetryPolicy;
  /** Longest silence between two chunks of a streamed reply (default: `policy.timeoutMs`). */
  streamIdleMs?: number;
  fetch?: typeof fetch;
  observer?: Observer;
}

/** `{base}/api/eu/v1` or `{base}/api/v1`: the region is fixed per client and never switched. */
export function gatewayApiBase(baseUrl: string, region: 'eu' | 'global'): string {
  return `${baseUrl.replace(/\/+$/, '')}${region === 'eu' ? '/api/eu/v1' : '/api/v1'}`;
}

/** Error bodies are read only to tell "credit used up" from "slow down"; more is never needed. */
const MAX_ERROR_BODY = 64 * 1024;

/**
 * Typed client of the model gateway (area A). The API key stays here. A `451` is final: the
 * request is never sent to the other region or for another model. Retries of 401/403/429/5xx
 * come from `fetchWithRetry`; exhausted credit (402, or a 403/429 whose body says so) is final.
 */
export class HttpGateway implements ModelGateway {
  readonly apiBase: string;
  readonly region: 'eu' | 'global';
  readonly model: string;

  constructor(private readonly o: HttpGatewayOptions) {
    this.apiBase = gatewayApiBase(o.baseUrl, o.region);
    this.region = o.region;
    this.model = o.model;
  }

  /** `GET /models`: the models callable in this region, with their prices as sent. */
  async listModels(): Promise<ModelInfo[]> {
    const res = await this.call('models', '/models', { method: 'GET' }, { idempotent: true });
    return parseModels(await readJson(res, 'gateway'));
  }

  /** `POST /chat/completions` without streaming; resolves with `choices[0].message.content`. */
  async chatCompletion(request: CompletionRequest & { stream?: false }): Promise<string> {
    const res = await this.call('chat', '/chat/completions', this.post(this.chatBody(request, false), request.signal), { idempotent: false });
    const text = completionText(await readJson(res, 'gateway'));
    if (text === undefined) throw new UpstreamError('upstream_error', 'The gateway answered without a reply text', { upstreamStatus: res.status });
    return text;
  }

  /** `POST /chat/completions` with `stream: true`; yields the reply's text deltas in order. */
  async *streamChatCompletion(request: CompletionRequest): AsyncGenerator<string> {
    const res = await this.call('chat_stream', '/chat/completions', this.post(this.chatBody(request, true), request.signal), {
      idempotent: false,
      keepBodyAlive: true,
      signal: request.signal,
    });
    if (!res.body || !/text\/event-stream/i.test(res.headers.get('content-type') ?? '')) {
      // A gateway may ignore `stream: true` and answer in one piece; that is still a reply.
      const text = completionText(await readJson(res, 'gateway'));
      if (text === undefined) throw new UpstreamError('upstream_error', 'The gateway answered without a reply text', { upstreamStatus: res.status });
      if (text) yield text;
      return;
    }
    yield* readChatStream(res.body, { idleMs: this.o.streamIdleMs ?? this.o.policy.timeoutMs, signal: request.signal });
  }

  /** `POST /responses` (the second compatible format); resolves with the output text. */
  async responses(request: { input: string | ChatTurn[]; maxTokens?: number; signal?: AbortSignal }): Promise<string> {
    const body: Record<string, unknown> = { model: this.model, input: request.input };
    if (request.maxTokens !== undefined) body.max_output_tokens = request.maxTokens;
    const res = await this.call('responses', '/responses', this.post(body, request.signal), { idempotent: false });
    const text = responsesText(await readJson(res, 'gateway'));
    if (text === undefined) throw new UpstreamError('upstream_error', 'The gateway answered without output text', { upstreamStatus: res.status });
    return text;
  }

  /** `POST /embeddings`: one vector per input, in input order. */
  async embeddings(input: string | string[], model = this.model): Promise<number[][]> {
    const res = await this.call('embeddings', '/embeddings', this.post({ model, input }), { idempotent: true, model });
    const vectors = embeddingVectors(await readJson(res, 'gateway'));
    if (vectors.length === 0) throw new UpstreamError('upstream_error', 'The gateway answered without a vector', { upstreamStatus: res.status });
    return vectors;
  }

  private chatBody(request: CompletionRequest, stream: boolean): Record<string, unknown> {
    const body: Record<string, unknown> = { model: this.model, messages: request.messages, stream };
    if (request.maxTokens !== undefined) body.max_tokens = request.maxTokens;
    return body;
  }

  private post(body: unknown, signal?: AbortSignal): RequestInit & { signal?: AbortSignal } {
    return { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, ...(signal ? { signal } : {}) };
  }

  private async call(
    operation: string,
    path: string,
    init: RequestInit,
    options: { idempotent: boolean; keepBodyAlive?: boolean; signal?: AbortSignal | null; model?: string },
  ): Promise<Response> {
    const headers = { ...(init.headers as Record<string, string>), authorization: `Bearer ${this.o.apiKey}`, accept: options.keepBodyAlive ? 'text/event-stream' : 'application/json' };
    const fetcher = gatewayFetch(this.o.fetch ?? fetch, { keepBodyAlive: options.keepBodyAlive === true, signal: options.signal ?? init.signal ?? undefined });
    let res: Response;
    try {
      res = await fetchWithRetry(
        { target: 'gateway', operation, url: this.apiBase + path, init: { ...init, headers }, idempotent: options.idempotent },
        this.o.policy,
        { fetch: fetcher, observer: this.o.observer },
      );
    } catch (err) {
      // A reply, not a message of the user's: nothing is duplicated by asking again, so the
      // widget hears what broke (timeout or unreachable), not "may have been sent".
      if (err instanceof UpstreamError && err.code === 'send_uncertain') throw failureOf(err.cause, true);
      if (err instanceof UpstreamError && (err.upstreamStatus === 401 || err.upstreamStatus === 403)) {
        throw new UpstreamError('upstream_error', 'The gateway refused the API key', { cause: err, upstreamStatus: err.upstreamStatus });
      }
      throw err;
    }
    if (res.ok) return res;
    await res.body?.cancel().catch(() => {});
    const status = { upstreamStatus: res.status };
    const model = options.model ?? this.model;
    if (res.status === 451) {
      throw new UpstreamError('model_unavailable_in_region', `The model ${model} is not available in the ${this.region === 'eu' ? 'EU' : 'global'} region`, status);
    }
    if (res.status === 402) throw new UpstreamError('budget_exhausted', 'The gateway credit or budget is used up', status);
    if (res.status === 404) throw new UpstreamError('upstream_error', path === '/models' ? 'The gateway address answers 404 for /models' : `The gateway does not offer ${model}`, status);
    throw new UpstreamError('upstream_error', `The gateway refused the request (status ${res.status})`, status);
  }
}

/**
 * Wraps `fetch` for the gateway:
 * - a 403/429 whose body says the credit is used up becomes a 402, so it is reported as
 *   `budget_exhausted` at once instead of being retried like a rate limit;
 * - with `keepBodyAlive`, the per-attempt timeout of `fetchWithRetry` covers only the wait for
 *   the headers: a streamed reply may take longer than that, and stalls are caught per chunk.
 */
function gatewayFetch(base: typeof fetch, options: { keepBodyAlive: boolean; signal?: AbortSignal }): typeof fetch {
  return async (input, init) => {
    let signal = init?.signal ?? undefined;
    const detach: Array<() => void> = [];
    if (options.keepBodyAlive && signal) {
      const attempt = signal;
      const own = new AbortController();
      const relay = () => own.abort(attempt.reason);
      attempt.addEventListener('abort', relay, { once: true });
      detach.push(() => attempt.removeEventListener('abort', relay));
      signal = own.signal;
    }
    if (options.signal) signal = signal ? AbortSignal.any([signal, options.signal]) : options.signal;
    let res: Response;
    try {
      res = await base(input, { ...init, signal });
    } finally {
      for (const d of detach) d();
    }
    if (res.status !== 403 && res.status !== 429) return res;
    const text = await boundedText(res);
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(text, { status: saysCreditExhausted(text) ? 402 : res.status, statusText: res.statusText, headers });
  };
}

async function boundedText(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (text.length > MAX_ERROR_BODY) {
      await reader.cancel().catch(() => {});
      break;
    }
  }
  return text;
}

