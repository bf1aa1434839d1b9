import { UpstreamError } from '../errors.js';
import type { Observer } from '../ports/observer.js';

export interface RetryPolicy {
  /** Retries after the first attempt. */
  retries: number;
  /** Per-attempt timeout in milliseconds. */
  timeoutMs: number;
  /** First backoff step in milliseconds; doubles each retry, with full jitter. */
  baseDelayMs?: number;
  /** No single wait is longer than this; a longer `Retry-After` ends the retries. */
  maxDelayMs?: number;
}

export interface UpstreamRequest {
  target: 'agent' | 'gateway' | 'flow' | 'feedback';
  operation: string;
  url: string;
  init: RequestInit;
  /**
   * Whether repeating the request is harmless. One that is not (a send, a flow trigger) is
   * repeated only when it provably never left this process; otherwise its failure is reported
   * as `send_uncertain`, since the service may have acted on it.
   */
  idempotent: boolean;
}

// docs/api.md "Calls to the service": these are retried; everything else is answered at once.
const RETRYABLE = new Set([401, 403, 408, 425, 429, 500, 502, 503, 504]);
// Answers that do not prove the request went unprocessed: the service (or a proxy before it) may
// have acted on it before failing or timing out. A call that is not idempotent is never repeated
// after one of them; the browser is told `send_uncertain` instead. The rest of RETRYABLE
// (401, 403, 425, 429, 503) refuse the request before any work is done.
const AMBIGUOUS = new Set([408, 500, 502, 504]);

/**
 * Calls an upstream with a timeout per attempt and bounded exponential backoff with jitter,
 * honouring `Retry-After`. Resolves with the first non-retryable response (the caller judges
 * 4xx); rejects with an `UpstreamError` once retries are spent. Never exposes upstream bodies.
 */
export async function fetchWithRetry(
  req: UpstreamRequest,
  policy: RetryPolicy,
  deps: { fetch?: typeof fetch; observer?: Observer; sleep?: (ms: number) => Promise<void> } = {},
): Promise<Response> {
  const doFetch = deps.fetch ?? fetch;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const base = policy.baseDelayMs ?? 200;
  const maxDelay = policy.maxDelayMs ?? 5_000;
  let last: UpstreamError | undefined;

  for (let attempt = 0; attempt <= policy.retries; attempt++) {
    const started = performance.now();
    let res: Response;
    try {
      res = await doFetch(req.url, { ...req.init, signal: AbortSignal.timeout(policy.timeoutMs) });
    } catch (cause) {
      deps.observer?.upstreamCall?.({ target: req.target, operation: req.operation, status: 'error', durationMs: performance.now() - started });
      last = failureOf(cause, req.idempotent);
      if (last.code === 'send_uncertain') throw last;
      if (attempt < policy.retries) await sleep(backoff(attempt, base, maxDelay));
      continue;
    }
    deps.observer?.upstreamCall?.({ target: req.target, operation: req.operation, status: res.status, durationMs: performance.now() - started });
    if (!RETRYABLE.has(res.status)) return res;

    await res.body?.cancel().catch(() => {});
    if (!req.idempotent && AMBIGUOUS.has(res.status)) {
      throw new UpstreamError('send_uncertain', 'The service failed while handling this; it may have been sent', { upstreamStatus: res.status });
    }
    const retryAfterSec = parseRetryAfter(res.headers.get('retry-after'));
    last = errorForStatus(res.status, retryAfterSec);
    if (attempt >= policy.retries) break;
    const wait = retryAfterSec !== undefined ? retryAfterSec * 1000 : backoff(attempt, base, maxDelay);
    if (wait > maxDelay) break; // the service asks for longer than a browser should wait
    await sleep(wait);
  }
  throw last ?? new UpstreamError('upstream_unavailable', 'The service is unavailable');
}

// Failures that happen before a byte of the request is written: a refused or unreachable
// address, a name that does not resolve, a connection that could not be opened in time.
const NEVER_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * What a failed `fetch` means for the caller. A timeout or a reset after the request went out
 * leaves it unknown whether the service acted on it: harmless to repeat for an idempotent call,
 * `send_uncertain` for one that is not, so nobody sends the same message twice.
 */
export function failureOf(cause: unknown, idempotent: boolean): UpstreamError {
  const neverSent = neverLeft(cause);
  if (!idempotent && !neverSent) {
    return new UpstreamError('send_uncertain', 'The connection to the service broke off; this may have been sent', { cause });
  }
  const timedOut = cause instanceof DOMException && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
  return timedOut
    ? new UpstreamError('upstream_timeout', 'The service did not answer in time', { cause })
    : new UpstreamError('upstream_unavailable', 'The service cannot be reached', { cause });
}

/** True when every connection error under `cause` (fetch wraps them; happy eyeballs aggregates them) is one of `NEVER_SENT`. */
function neverLeft(cause: unknown): boolean {
  const codes: string[] = [];
  const walk = (e: unknown, depth: number): void => {
    if (typeof e !== 'object' || e === null || depth > 4) return;
    const { code, errors, cause: inner } = e as { code?: unknown; errors?: unknown; cause?: unknown };
    if (Array.isArray(errors) && errors.length) for (const x of errors) walk(x, depth + 1);
    else if (inner !== undefined) walk(inner, depth + 1);
    else if (typeof code === 'string') codes.push(code);
  };
  walk(cause, 0);
  return codes.length > 0 && codes.every((code) => NEVER_SENT.has(code));
}

/** The error reported once retries for `status` are spent. */
export function errorForStatus(status: number, retryAfterSec?: number): UpstreamError {
  const options = { upstreamStatus: status, ...(retryAfterSec !== undefined ? { retryAfterSec } : {}) };
  if (status === 429 || status === 503) return new UpstreamError('upstream_unavailable', 'The service is busy; try again shortly', options);
  if (status === 504 || status === 408) return new UpstreamError('upstream_timeout', 'The service did not answer in time', options);
  return new UpstreamError('upstream_error', 'The service could not handle the request', options);
}

/** `Retry-After` as seconds (delta-seconds or an HTTP date); undefined when absent or unusable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function backoff(attempt: number, base: number, max: number): number {
  // Full jitter: a random wait up to the exponential step spreads retries from many instances.
  return Math.round(Math.random() * Math.min(max, base * 2 ** attempt));
}

/** An upstream answer's JSON body (undefined when empty); unreadable JSON is the `who`'s fault, a 502. */
export async function readJson(res: Response, who: string): Promise<unknown> {
  try {
    const text = await res.text();
    return text ? JSON.parse(text) : undefined;
  } catch (cause) {
    throw new UpstreamError('upstream_error', `The ${who} sent an unreadable answer`, { cause, upstreamStatus: res.status });
  }
}
