import { Hono } from 'hono';
import { recordStateChange } from '../chat/signed-in.js';
import type { AppDeps, AppEnv } from '../context.js';
import { AppError, PayloadTooLargeError, StoreUnavailableError, ValidationError } from '../errors.js';
import { quickJson, readRequestBody } from '../lib/http.js';
import { jsonDepthWithin, MAX_JSON_DEPTH } from '../lib/json-depth.js';
import { EnvelopeError, normalizeWebhook } from '../adapters/agent-shapes.js';
import type { WebhookObservation, WebhookOutcome } from '../ports/observer.js';

/** Largest webhook body accepted (docs/api.md "Webhooks"). */
export const MAX_WEBHOOK_BYTES = 1024 * 1024;

const EVENT_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * `POST /webhooks/agent` (docs/api.md "Webhooks"): raw bytes, verify, parse, dedup + store atomically, then 200.
 * Fan-out to streams is done by the store's subscribers after the append.
 */
export function webhookRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.post('/webhooks/agent', async (c) => {
    const started = performance.now();
    const seen: Partial<WebhookObservation> = {};
    const report = (outcome: WebhookOutcome) => {
      try {
        deps.observer?.webhook?.({ ...seen, outcome, durationMs: performance.now() - started });
      } catch {
        // observers never change the answer
      }
    };

    let raw: Uint8Array;
    try {
      raw = await readRequestBody(c, MAX_WEBHOOK_BYTES);
    } catch (err) {
      if (err instanceof PayloadTooLargeError) report('too_large');
      throw err;
    }

    const verdict = deps.verifier.verify(raw, c.req.header('x-service-signature'), c.req.header('x-service-timestamp'));
    if (!verdict.ok) {
      const stale = verdict.reason === 'stale_timestamp';
      report(stale ? 'stale_timestamp' : 'invalid_signature');
      // One message for every signature failure: the sender learns nothing about which part failed.
      throw new AppError(stale ? 'stale_timestamp' : 'invalid_signature', stale ? 'Timestamp outside the allowed window' : 'Signature check failed');
    }

    // Signed but unusable: acknowledged like any event we cannot show, so the service stops resending.
    if (!jsonDepthWithin(raw)) {
      deps.logger.info('webhook left out', { requestId: c.get('requestId'), reason: 'nested too deep', maxDepth: MAX_JSON_DEPTH });
      report('ignored');
      return c.json({ ok: true, ignored: true });
    }
    const headerEventId = c.req.header('x-service-event-id');
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(raw).toString('utf8'));
    } catch {
      report('bad_request');
      throw new ValidationError('Body is not valid JSON', 'invalid_json');
    }
    let normalized;
    try {
      normalized = normalizeWebhook(body, raw, headerEventId && EVENT_ID.test(headerEventId) ? headerEventId : undefined);
    } catch (err) {
      if (!(err instanceof EnvelopeError)) throw err;
      report('bad_request');
      throw new ValidationError(err.message);
    }
    seen.eventId = normalized.dedupKey;
    seen.kind = normalized.kind;
    seen.conversationId = normalized.conversationId;

    if (!normalized.event || normalized.conversationId === undefined) {
      if (normalized.skipped) deps.logger.info('webhook left out', { eventId: normalized.dedupKey, kind: normalized.kind, reason: normalized.skipped });
      report('ignored');
      return c.json({ ok: true, ignored: true });
    }
    let result;
    try {
      result = await deps.store.append(normalized.conversationId, normalized.event, { dedupKey: normalized.dedupKey });
    } catch (err) {
      report('store_unavailable');
      throw err instanceof StoreUnavailableError ? err : new StoreUnavailableError('Event store unavailable', { cause: err });
    }
    report(result.status === 'duplicate' ? 'duplicate' : 'stored');
    if (result.status === 'stored' && (normalized.event.event === 'state' || normalized.event.event === 'archived')) {
      // After the answer's work is done, like fan-out: the list of a signed-in user is a view.
      recordStateChange(deps, normalized.conversationId, normalized.event).catch((err: unknown) =>
        deps.logger.warn('conversation state not recorded', { conversationId: normalized.conversationId, error: String(err) }),
      );
    }
    return quickJson(c, result.status === 'duplicate' ? '{"ok":true,"duplicate":true}' : '{"ok":true}', { 'x-request-id': c.get('requestId') });
  });

  return app;
}
