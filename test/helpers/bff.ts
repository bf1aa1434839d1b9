import { signWebhook } from '../../bff/src/lib/webhook-verify.js';
import type { RunningServer } from '../../bff/src/server.js';
import { startDemo } from '../../demo/main.js';

export const WEBHOOK_SECRET = 'test-webhook-secret-0123456789';
export const JWT_SECRET = 'test-jwt-secret-0123456789-0123456789';

/** Starts the BFF in process in demo mode (simulator on the same port) with fast, deterministic settings. */
export function startBff(env: Record<string, string> = {}): Promise<RunningServer> {
  return startDemo({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    WEBHOOK_SECRET,
    SESSION_JWT_SECRET: JWT_SECRET,
    SIM_REPLY_DELAY_MS: '5',
    SIM_DUPLICATE_RATE: '0',
    // Demo mode signs in sample customers by default; these tests are about anonymous visitors.
    IDENTITY_SECRET: '',
    ...env,
  });
}

/** JSON request helper returning status, headers and parsed body. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(base + path, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** Posts a webhook signed like the service does (or with `sign: false`, unsigned). */
export async function postWebhook(
  base: string,
  envelope: unknown,
  options: { secret?: string; timestamp?: string; raw?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any }> {
  const raw = options.raw ?? JSON.stringify(envelope);
  const ts = options.timestamp ?? String(Math.floor(Date.now() / 1000));
  const res = await fetch(`${base}/webhooks/agent`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-timestamp': ts,
      'x-service-signature': signWebhook(options.secret ?? WEBHOOK_SECRET, ts, raw),
      ...options.headers,
    },
    body: raw,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
