import { HTTPException } from 'hono/http-exception';
import type { ErrorCode } from '../../shared/errors.js';
import type { ErrorBody } from '../../shared/types.js';
import { AppError, RequestAbortedError, STATUS_BY_CODE } from './errors.js';
import type { Logger } from './logger.js';

/** The failed request, as its log lines name it. */
export interface FailedRequest {
  requestId: string | undefined;
  method: string;
  path: string;
}

/** What a client is told about a failed request. */
export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  /** For `Retry-After`, when the error knows it. */
  retryAfterSec?: number;
}

/**
 * The one place where errors become HTTP answers (through `STATUS_BY_CODE`), for `app.onError`
 * and the webhook fast path alike. Server-side failures are logged with the request id; their
 * details never reach the client.
 */
export function errorAnswer(err: unknown, logger: Logger, request: FailedRequest): ErrorAnswer {
  const { requestId } = request;
  if (err instanceof RequestAbortedError) {
    logger.info('request body aborted', { requestId, method: request.method, path: request.path, reason: err.message });
  }
  if (err instanceof AppError) {
    const status = STATUS_BY_CODE[err.code];
    if (status >= 500) logger.warn('request failed', { requestId, method: request.method, path: request.path, code: err.code, cause: causeOf(err) });
    const answer: ErrorAnswer = { status, body: { error: { code: err.code, message: err.message } } };
    if (err.retryAfterSec !== undefined) answer.retryAfterSec = err.retryAfterSec;
    return answer;
  }
  if (err instanceof HTTPException && err.status < 500) {
    const code: ErrorCode = err.status === 413 ? 'payload_too_large' : 'invalid_request';
    return { status: err.status, body: { error: { code, message: err.status === 413 ? 'Body too large' : 'Bad request' } } };
  }
  logger.error('unhandled error', { requestId, method: request.method, path: request.path, error: err instanceof Error ? err.stack : String(err) });
  return { status: 500, body: { error: { code: 'internal_error', message: 'Something went wrong' } } };
}

function causeOf(err: Error): string | undefined {
  const cause = err.cause;
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : cause === undefined ? undefined : String(cause);
}
