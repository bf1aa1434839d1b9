import { browserVariablesOf } from '../people/browser-variables.js';
import { authorBookOf, type AuthorBook } from '../people/authors.js';
import { recordStateChange } from '../chat/signed-in.js';
import { rememberOperator } from '../chat/remembered-authors.js';
import type { AppDeps } from '../context.js';
import { AppError, PayloadTooLargeError, StoreUnavailableError, ValidationError } from '../errors.js';
import type { BodyLimits } from '../lib/body-limits.js';
import { jsonDepthWithin, MAX_JSON_DEPTH } from '../lib/json-depth.js';
import { EnvelopeError, normalizeWebhook, type NormalizedWebhook } from '../adapters/agent-shapes.js';
import type { AppendResult } from '../ports/event-store.js';
import type { WebhookOutcome } from '../ports/observer.js';
import type { VerifyFailure } from '../lib/webhook-verify.js';
import type { StreamEvent } from '../../../shared/types.js';

/** Largest webhook body accepted (docs/api.md "Webhooks"). */
export const MAX_WEBHOOK_BYTES = 1024 * 1024;

/** How a webhook body is read: cut after BODY_IDLE_TIMEOUT_MS without a byte, or when not complete within WEBHOOK_BODY_TIMEOUT_MS. */
export function webhookBodyLimits(deps: AppDeps): BodyLimits {
  return { idleMs: deps.config.bodyIdleTimeoutMs, totalMs: deps.config.webhookBodyTimeoutMs };
}

/** What a webhook's checks read besides its body: its headers, as they arrived, and the request's id. */
export interface WebhookRequest {
  requestId: string;
  signature: string | undefined;
  timestamp: string | undefined;
}

/** What normalising a webhook reads from the configuration, looked up once by a caller that keeps it (the fast path). */
export interface WebhookShapes {
  browserVariables: readonly string[];
  authors: AuthorBook;
}

export function webhookShapesOf(deps: AppDeps): WebhookShapes {
  return { browserVariables: browserVariablesOf(deps.config), authors: authorBookOf(deps.config) };
}

const STORED = '{"ok":true}';
const DUPLICATE = '{"ok":true,"duplicate":true}';
const IGNORED = '{"ok":true,"ignored":true}';

/**
 * One webhook from its raw bytes to its answer (docs/api.md "Webhooks"): read (at most `MAX_WEBHOOK_BYTES`),
 * verify, parse, dedup + store atomically. Resolves with the JSON body of the `200` once the
 * event is stored; throws an `AppError` for every refusal. Every outcome is reported to the
 * observer. Fan-out to streams is done by the store's subscribers after the append.
 *
 * Framework-free, so the Hono route and the Node fast path (`webhook-fast-path.ts`) share it; the
 * fast path reads the body with a callback and calls `webhookRead` and `ingestBody` itself.
 */
export async function ingestWebhook(
  deps: AppDeps,
  readBody: (maxBytes: number) => Promise<Uint8Array>,
  request: WebhookRequest,
): Promise<string> {
  const started = performance.now();
  let raw: Uint8Array;
  try {
    raw = await readBody(MAX_WEBHOOK_BYTES);
  } catch (err) {
    return webhookReadFailed(deps, started, err);
  }
  return ingestBody(deps, raw, request, started);
}

/** A webhook body that could not be read (too large, cut, aborted): reported, and thrown on. */
export function webhookReadFailed(deps: AppDeps, started: number, err: unknown): never {
  if (err instanceof PayloadTooLargeError) report(deps, started, 'too_large');
  throw err;
}

/**
 * The webhook's work once its body is read (`started` is when reading began): the JSON of the
 * `200`, at once when nothing is stored (ignored) or as a promise settled by the store's append.
 * Throws (synchronously) an `AppError` for a refusal before the store; the promise rejects with
 * one when the store fails.
 */
export function ingestBody(deps: AppDeps, raw: Uint8Array, request: WebhookRequest, started: number, shapes = webhookShapesOf(deps)): string | Promise<string> {
  const verdict = deps.verifier.verify(raw, request.signature, request.timestamp);
  if (!verdict.ok) {
    const stale = verdict.reason === 'stale_timestamp';
    // The observer (the demo's inspector) may tell an unsigned request from a forged signature; the sender may not.
    report(deps, started, stale ? 'stale_timestamp' : 'invalid_signature', undefined, stale ? undefined : verdict.reason);
    // One message for every signature failure: the sender learns nothing about which part failed.
    throw new AppError(stale ? 'stale_timestamp' : 'invalid_signature', stale ? 'Timestamp outside the allowed window' : 'Signature check failed');
  }

  // Signed but unusable: acknowledged like any event we cannot show, so the service stops resending.
  if (!jsonDepthWithin(raw)) {
    deps.logger.info('webhook left out', { requestId: request.requestId, reason: 'nested too deep', maxDepth: MAX_JSON_DEPTH });
    report(deps, started, 'ignored');
    return IGNORED;
  }
  let body: unknown;
  try {
    // Node's bytes as they are (the fast path's), else a view of them, never a copy.
    body = JSON.parse((Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)).toString('utf8'));
  } catch {
    report(deps, started, 'bad_request');
    throw new ValidationError('Body is not valid JSON', 'invalid_json');
  }
  let normalized;
  try {
    normalized = normalizeWebhook(body, raw, request.timestamp!, shapes.browserVariables, shapes.authors); // verified above, so present
  } catch (err) {
    if (!(err instanceof EnvelopeError)) throw err;
    report(deps, started, 'bad_request');
    throw new ValidationError(err.message);
  }

  if (!normalized.event || normalized.conversationId === undefined) {
    if (normalized.skipped) deps.logger.info('webhook left out', { eventId: normalized.dedupKey, kind: normalized.kind, reason: normalized.skipped });
    report(deps, started, 'ignored', normalized);
    return IGNORED;
  }
  return store(deps, normalized as StorableWebhook, started);
}

type StorableWebhook = NormalizedWebhook & { conversationId: string; event: StreamEvent };

/**
 * Dedup + append, then the answer: at once from a store that appends in this process (memory),
 * else when the store's append settles (Redis), the only step that waits.
 */
function store(deps: AppDeps, normalized: StorableWebhook, started: number): string | Promise<string> {
  const { conversationId, event, dedupKey } = normalized;
  if (!deps.store.appendNow) {
    return deps.store.append(conversationId, event, { dedupKey }).then(
      (result) => stored(deps, normalized, started, result),
      (err: unknown) => storeFailed(deps, normalized, started, err),
    );
  }
  let result: AppendResult;
  try {
    result = deps.store.appendNow(conversationId, event, { dedupKey });
  } catch (err) {
    return storeFailed(deps, normalized, started, err);
  }
  return stored(deps, normalized, started, result);
}

function storeFailed(deps: AppDeps, normalized: StorableWebhook, started: number, err: unknown): never {
  report(deps, started, 'store_unavailable', normalized);
  throw err instanceof StoreUnavailableError ? err : new StoreUnavailableError('Event store unavailable', { cause: err });
}

function stored(deps: AppDeps, normalized: StorableWebhook, started: number, result: AppendResult): string {
  // Also for a duplicate: a repeat delivery heals a first write that failed (the write is idempotent).
  if (normalized.event.event === 'message') rememberOperator(deps, normalized.conversationId, normalized.event.data);
  if (result.status === 'duplicate') {
    report(deps, started, 'duplicate', normalized);
    return DUPLICATE;
  }
  report(deps, started, 'stored', normalized);
  const { conversationId, event } = normalized;
  // An operator's message may have to reach a visitor who left: a look is scheduled, never awaited.
  deps.continuity?.stored(conversationId, result.event);
  if (event.event === 'state' || event.event === 'archived') {
    // After the answer's work is done, like fan-out: the list of a signed-in user is a view.
    recordStateChange(deps, conversationId, event).catch((err: unknown) =>
      deps.logger.warn('conversation state not recorded', { conversationId, error: String(err) }),
    );
  }
  return STORED;
}

/** Tells the observer (metrics, the demo's inspector) what became of a webhook; never changes the answer. */
function report(deps: AppDeps, started: number, outcome: WebhookOutcome, normalized?: NormalizedWebhook, reason?: VerifyFailure): void {
  const observer = deps.observer;
  if (!observer?.webhook) return;
  const durationMs = performance.now() - started;
  try {
    // Object literals, not `{ ...seen, outcome }`: a spread followed by more keys takes V8's slow path.
    observer.webhook(
      normalized
        ? { eventId: normalized.dedupKey, kind: normalized.kind, conversationId: normalized.conversationId, outcome, durationMs }
        : reason === undefined ? { outcome, durationMs } : { outcome, reason, durationMs },
    );
  } catch {
    // observers never change the answer
  }
}
