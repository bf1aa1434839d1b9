import { PayloadTooLargeError, UpstreamError } from '../errors.js';
import { fetchWithRetry, type RetryPolicy } from '../lib/http-retry.js';
import { isRecord } from '../../../shared/records.js';
import type { FlowClient, FlowTriggerInput, IncomingWebhookDto } from '../ports/flows.js';
import type { Observer } from '../ports/observer.js';

export interface HttpFlowClientOptions {
  /** `{base_url}` (or the demo/dev host, which serve the same paths). */
  baseUrl: string;
  policy: RetryPolicy;
  fetch?: typeof fetch;
  observer?: Observer;
}

/**
 * Flow triggers over HTTP (area C).
 *
 * Retries: a trigger starts a job, so it is not idempotent. Every trigger (JSON or multipart)
 * goes through `fetchWithRetry` as non-idempotent: a 401/403/429/5xx answer is retried with
 * backoff and `Retry-After` (the service said "not now"), a refused connection is retried (nothing
 * was sent), but a timeout is never retried, since the job may already be running and a second
 * trigger would run the flow twice. Multipart bodies are built from files already held in memory,
 * so a retry sends the very same bytes.
 *
 * The webhook token is part of the path only; it is removed from every error this client throws.
 */
export class HttpFlowClient implements FlowClient {
  constructor(private readonly o: HttpFlowClientOptions) {}

  async triggerFlow(token: string, input: FlowTriggerInput): Promise<{ jobId: string }> {
    let init: RequestInit;
    if (input.files && input.files.length > 0) {
      const form = new FormData();
      form.set('variables', JSON.stringify(input.variables));
      for (const file of input.files) form.append('files', file, file.name);
      if (input.sessionId !== undefined) form.set('sessionId', String(input.sessionId));
      init = { method: 'POST', body: form }; // fetch sets the multipart boundary itself
    } else {
      const body: IncomingWebhookDto = { data: input.variables };
      if (input.sessionId !== undefined) body.sessionId = input.sessionId;
      init = { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
    }
    return this.call('trigger', `/webhook/${encodeURIComponent(token)}`, init, token);
  }

  async testFlow(userId: string, payload: IncomingWebhookDto): Promise<{ jobId: string }> {
    const init = { method: 'POST', body: JSON.stringify(payload), headers: { 'content-type': 'application/json' } };
    return this.call('test', `/webhook/test/${encodeURIComponent(userId)}`, init);
  }

  private async call(operation: string, path: string, init: RequestInit, secret?: string): Promise<{ jobId: string }> {
    const headers = { accept: 'application/json', ...(init.headers as Record<string, string> | undefined) };
    let res: Response;
    try {
      res = await fetchWithRetry(
        { target: 'flow', operation, url: this.o.baseUrl.replace(/\/+$/, '') + path, init: { ...init, headers }, idempotent: false },
        this.o.policy,
        { fetch: this.o.fetch, observer: this.o.observer },
      );
    } catch (err) {
      throw scrub(err, secret);
    }
    if (!res.ok) {
      await res.body?.cancel().catch(() => {});
      const status = { upstreamStatus: res.status };
      if (res.status === 413) throw new PayloadTooLargeError('The service refused the files as too large');
      if (res.status === 404) throw new UpstreamError('upstream_error', 'The flow is not set up on the service', status);
      if (res.status === 400 || res.status === 422) throw new UpstreamError('upstream_error', 'The service refused the flow input', status);
      throw new UpstreamError('upstream_error', `The service refused the flow trigger (status ${res.status})`, status);
    }
    let body: unknown;
    try {
      const text = await res.text();
      body = text ? JSON.parse(text) : undefined;
    } catch (cause) {
      throw new UpstreamError('upstream_error', 'The service sent an unreadable answer to the flow trigger', { cause: scrubText(String(cause), secret), upstreamStatus: res.status });
    }
    const jobId = jobIdOf(body);
    if (jobId === undefined) throw new UpstreamError('upstream_error', 'The service did not return a jobId', { upstreamStatus: res.status });
    return { jobId };
  }
}

/** `{jobId}` as documented; `job_id`, `id`, a `data` wrapper or a bare string tolerated. */
function jobIdOf(body: unknown): string | undefined {
  if ((typeof body === 'string' && body !== '') || typeof body === 'number') return String(body);
  if (!isRecord(body)) return undefined;
  for (const v of [body.jobId, body.job_id, body.id]) {
    if ((typeof v === 'string' && v !== '') || typeof v === 'number') return String(v).slice(0, 200);
  }
  return isRecord(body.data) ? jobIdOf(body.data) : undefined;
}

/** Keeps the error's code and message but drops anything that could quote the URL, and so the token. */
function scrub(err: unknown, secret: string | undefined): unknown {
  if (!(err instanceof UpstreamError)) return err;
  const cause = err.cause instanceof Error ? scrubText(`${err.cause.name}: ${err.cause.message}`, secret) : undefined;
  return new UpstreamError(err.code as ConstructorParameters<typeof UpstreamError>[0], err.message, {
    ...(cause ? { cause } : {}),
    ...(err.upstreamStatus !== undefined ? { upstreamStatus: err.upstreamStatus } : {}),
    ...(err.retryAfterSec !== undefined ? { retryAfterSec: err.retryAfterSec } : {}),
  });
}

function scrubText(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('[token]').split(encodeURIComponent(secret)).join('[token]') : text;
}
