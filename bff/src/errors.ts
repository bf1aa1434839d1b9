import type { ErrorCode } from '../../shared/errors.js';

/**
 * Base class of every error the BFF means to show a client. Carries a stable `code`;
 * the HTTP status comes from `STATUS_BY_CODE` in exactly one place (`errorAnswer`).
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  /** Seconds a client should wait before retrying, when that is known. */
  readonly retryAfterSec?: number;

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown; retryAfterSec?: number }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    if (options?.retryAfterSec !== undefined) this.retryAfterSec = options.retryAfterSec;
  }
}

/** The request is malformed (body, query or a field). */
export class ValidationError extends AppError {
  constructor(message: string, code: ErrorCode = 'invalid_request') {
    super(code, message);
  }
}

/** Missing, malformed, expired or reused credentials. */
export class AuthError extends AppError {}

/** The caller is known but may not do this (origin, feature, variable name). */
export class ForbiddenError extends AppError {}

export class NotFoundError extends AppError {
  constructor(message = 'Not found', code: ErrorCode = 'not_found') {
    super(code, message);
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super('payload_too_large', message);
  }
}

export class RateLimitError extends AppError {
  constructor(retryAfterSec: number) {
    super('rate_limited', 'Too many requests; try again shortly', { retryAfterSec });
  }
}

/**
 * The client stopped sending its body (closed the connection, or stalled past the idle limit).
 * Nobody reads the answer; `onError` logs one info line instead of a stack trace.
 */
export class RequestAbortedError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_request', message, options);
  }
}

/** The upstream service failed; `code` tells the widget whether to retry. Never holds the upstream body. */
export class UpstreamError extends AppError {
  /** Upstream HTTP status, when there was a response (kept for logs and metrics only). */
  readonly upstreamStatus?: number;

  constructor(
    code: Extract<ErrorCode, `upstream_${string}` | 'send_uncertain' | 'model_unavailable_in_region' | 'budget_exhausted'>,
    message: string,
    options?: { cause?: unknown; retryAfterSec?: number; upstreamStatus?: number },
  ) {
    super(code, message, options);
    if (options?.upstreamStatus !== undefined) this.upstreamStatus = options.upstreamStatus;
  }
}

/** The event store (memory or Redis) cannot take or give events right now. */
export class StoreUnavailableError extends AppError {
  constructor(message = 'Event store unavailable', options?: { cause?: unknown }) {
    super('store_unavailable', message, options);
  }
}

/** One code-to-status table; adapters never choose statuses. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_json: 400,
  text_invalid: 400,
  unknown_message: 400,
  feedback_invalid: 400,
  comment_too_long: 400,
  csat_invalid: 400,
  contact_invalid: 400,
  consent_required: 400,
  contact_known: 409,
  already_rated: 409,
  not_rateable: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  // A file of a type UPLOAD_TYPES does not take, by its name, its declared type or its bytes.
  file_type_not_accepted: 415,
  unauthorized: 401,
  invalid_token: 401,
  token_expired: 401,
  refresh_token_reused: 401,
  invalid_identity: 401,
  identity_required: 401,
  identity_verified_only: 403,
  // A continue link of a conversation that now belongs to a signed-in user: the page signs in instead.
  sign_in_required: 403,
  invalid_signature: 401,
  stale_timestamp: 401,
  origin_not_allowed: 403,
  forbidden: 403,
  feature_disabled: 403,
  variable_not_allowed: 403,
  not_found: 404,
  flow_not_found: 404,
  conversation_archived: 409,
  // The same start (its startKey) is still running: the browser tries again after Retry-After.
  start_in_progress: 409,
  // A repeat of a start whose conversation went on under a sign-in, or whose tokens were revoked: never new tokens for it.
  start_ended: 409,
  // The service no longer knows the conversation (lost, deleted): nothing was ended by anyone, and nothing can be rated.
  conversation_gone: 410,
  rate_limited: 429,
  too_many_streams: 429,
  model_unavailable_in_region: 451,
  budget_exhausted: 402,
  upstream_error: 502,
  upstream_unavailable: 503,
  store_unavailable: 503,
  upstream_timeout: 504,
  // Not a retryable failure: the service may have taken the message, so the widget must not resend it.
  send_uncertain: 502,
  internal_error: 500,
};
