import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/** Why a webhook signature check failed. */
export type VerifyFailure = 'missing_signature' | 'malformed_signature' | 'missing_timestamp' | 'malformed_timestamp' | 'stale_timestamp' | 'bad_signature';

export type VerifyResult = { ok: true } | { ok: false; reason: VerifyFailure };

export interface WebhookVerifierOptions {
  /** Current secrets; any one may match (rotation). */
  secrets: readonly string[];
  /** Allowed clock difference either way, in milliseconds. Default 5 minutes. */
  toleranceMs?: number;
  now?: () => number;
}

// Strict formats, checked before any decoding: 64 hex digits (optionally "sha256=" first),
// and a timestamp of 9-10 digits (seconds) or 12-13 digits (milliseconds).
const SIGNATURE = /^(?:sha256=)?([0-9a-fA-F]{64})$/;
const TIMESTAMP = /^(?:\d{9,10}|\d{12,13})$/;
const DOT = Buffer.from('.');

/**
 * Verifies `x-service-signature` = hex HMAC-SHA256 of `{timestamp}.{raw body}` (docs/api.md "Webhooks").
 * Keys are imported once; comparison is constant-time over equal-length digests.
 */
/** How far a webhook's signed timestamp may be from now, either way (docs/api.md "Webhooks"). */
export const WEBHOOK_WINDOW_SEC = 300;
/** The shortest webhook secret the BFF accepts: a short one can be guessed offline from one signed webhook. */
export const MIN_WEBHOOK_SECRET_LENGTH = 16;

export class WebhookVerifier {
  private readonly keys: KeyObject[];
  private readonly toleranceMs: number;
  private readonly now: () => number;

  constructor(options: WebhookVerifierOptions) {
    if (options.secrets.length === 0) throw new Error('WebhookVerifier needs at least one secret');
    this.keys = options.secrets.map((s) => createSecretKey(Buffer.from(s, 'utf8')));
    this.toleranceMs = options.toleranceMs ?? WEBHOOK_WINDOW_SEC * 1000;
    this.now = options.now ?? Date.now;
  }

  /** Checks the two headers against the raw body bytes. Never throws. */
  verify(rawBody: Uint8Array, signatureHeader: string | undefined | null, timestampHeader: string | undefined | null): VerifyResult {
    if (!signatureHeader) return { ok: false, reason: 'missing_signature' };
    if (!timestampHeader) return { ok: false, reason: 'missing_timestamp' };
    const sig = SIGNATURE.exec(signatureHeader.trim());
    if (!sig) return { ok: false, reason: 'malformed_signature' };
    const ts = timestampHeader.trim();
    if (!TIMESTAMP.test(ts)) return { ok: false, reason: 'malformed_timestamp' };

    // Seconds have at most 10 digits until the year 2286; milliseconds have 12 or more.
    const tsMs = ts.length >= 12 ? Number(ts) : Number(ts) * 1000;
    if (Math.abs(this.now() - tsMs) > this.toleranceMs) return { ok: false, reason: 'stale_timestamp' };

    const expected = Buffer.from(sig[1]!.toLowerCase(), 'hex');
    const prefix = Buffer.from(ts, 'utf8');
    let match = false;
    for (const key of this.keys) {
      const digest = createHmac('sha256', key).update(prefix).update(DOT).update(rawBody).digest();
      // Both are 32 bytes by construction; check anyway, timingSafeEqual throws on a mismatch.
      if (digest.length === expected.length && timingSafeEqual(digest, expected)) match = true;
    }
    return match ? { ok: true } : { ok: false, reason: 'bad_signature' };
  }
}

/** Computes the signature header value for a body: used by tests, the simulator's twin and benchmarks. */
export function signWebhook(secret: string, timestamp: string, rawBody: string | Uint8Array): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}
