// Schema entries: browsers, sessions and limits (docs/configuration.md's second table).
import type { Parser } from '../env-parser.js';
import { parseProxyTrust, type ProxyTrust } from '../lib/client-ip.js';
import { badUploadType, DEFAULT_UPLOAD_TYPES } from '../lib/upload-types.js';
import { isOrigin, secret, setting } from './setting.js';

const group = 'browsers' as const;

/** Room in a multipart body for the non-file parts and the part headers. */
export const FORM_OVERHEAD_BYTES = 256 * 1024;

/** The largest multipart body a flow or upload request may have. */
export function maxFormBytes(maxUploadFiles: number, maxUploadBytes: number): number {
  return maxUploadFiles * maxUploadBytes + FORM_OVERHEAD_BYTES;
}

const readUploadBytes = (p: Parser) => p.int('MAX_UPLOAD_BYTES', 10_485_760, 1, 1_073_741_824);
const readUploadFiles = (p: Parser) => p.int('MAX_UPLOAD_FILES', 5, 1, 100);

export const BROWSERS = {
  allowedOrigins: setting({
    env: 'ALLOWED_ORIGINS', group, default: 'required outside demo mode; demo: `*`', example: 'https://www.example.com',
    doc: 'comma-separated origins whose pages may use the chat (`https://shop.example`); `*` only in demo mode',
    read: (p, mode) => readOrigins(p, mode.simulator),
  }),
  publicOrigin: setting({
    env: 'PUBLIC_ORIGIN', group, doc: 'the origin browsers reach the BFF at; pages served from it may use the chat too', default: 'unset (demo: `http://localhost:{PORT}`)',
    read: (p, mode) => readPublicOrigin(p, mode.simulator),
  }),
  trustProxy: setting({
    env: 'TRUST_PROXY', group, default: '`false`', example: 'false',
    doc: 'the proxies in front of the BFF, whose `X-Forwarded-For` gives the client IP for rate limits and stream caps: `true` (one), a number of them (1–10), or their addresses and CIDR ranges (`10.0.0.0/8`, `loopback`, `uniquelocal`); only ever entries those proxies appended are believed',
    read: readProxyTrust,
  }),
  sessionJwtSecret: setting({
    env: 'SESSION_JWT_SECRET', group, doc: "key of the widget's tokens, at least 32 bytes", default: 'required outside demo mode; demo: random per process', secret: true,
    read: (p, mode) => {
      const key = secret(p, 'SESSION_JWT_SECRET', !mode.simulator);
      if (key && Buffer.byteLength(key) < 32) p.report('SESSION_JWT_SECRET must be at least 32 bytes');
      return key;
    },
  }),
  sessionTokenTtlSec: setting({
    env: 'SESSION_TOKEN_TTL', group, doc: 'access-token lifetime, seconds (30–86400)', default: '`900`', example: '900',
    read: (p) => p.int('SESSION_TOKEN_TTL', 900, 30, 86_400),
  }),
  refreshTokenTtlSec: setting({
    env: 'REFRESH_TOKEN_TTL', group, doc: 'refresh-token lifetime, seconds (60–31536000)', default: '`604800`', example: '604800',
    read: (p) => p.int('REFRESH_TOKEN_TTL', 604_800, 60, 31_536_000),
  }),
  rateLimitSessionsPerMin: setting({
    env: 'RATE_LIMIT_SESSIONS_PER_MIN', group, doc: 'new conversations per client IP per minute (1–1000000); token refreshes get 10× this', default: '`20`', example: '20',
    read: (p) => p.int('RATE_LIMIT_SESSIONS_PER_MIN', 20, 1, 1_000_000),
  }),
  rateLimitMessagesPerMin: setting({
    env: 'RATE_LIMIT_MESSAGES_PER_MIN', group, default: '`30`', example: '30',
    doc: 'messages and flow runs per conversation per minute (1–1000000), by every route that sends text (a signed-in resume with text included); other conversation calls share 4× this, stream opens 2×',
    read: (p) => p.int('RATE_LIMIT_MESSAGES_PER_MIN', 30, 1, 1_000_000),
  }),
  maxUploadBytes: setting({
    env: 'MAX_UPLOAD_BYTES', group, doc: 'largest file (1 B–1 GiB)', default: '`10485760`', example: '10485760',
    read: readUploadBytes, public: (maxUploadBytes) => ({ limits: { maxUploadBytes } }),
  }),
  maxUploadFiles: setting({
    env: 'MAX_UPLOAD_FILES', group, doc: 'files per request (1–100)', default: '`5`', example: '5',
    read: readUploadFiles, public: (maxUploadFiles) => ({ limits: { maxUploadFiles } }),
  }),
  uploadTypes: setting({
    env: 'UPLOAD_TYPES', group, default: 'images (PNG, JPEG, GIF, WebP, HEIC), PDF, plain text, CSV, OOXML and ODF office documents, by media type and extension',
    example: 'image/png,image/jpeg,application/pdf,.png,.jpg,.jpeg,.pdf',
    doc: 'comma-separated media types (`image/png`, `image/*`) and extensions (`.png`) chat uploads may have: a file is taken when its extension, its declared type and the type its bytes show (magic numbers) are all on the list and its extension is one of that type’s; else `415 file_type_not_accepted`. The widget refuses other files as they are picked',
    read: (p) => {
      const entries = p.list('UPLOAD_TYPES', DEFAULT_UPLOAD_TYPES).map((e) => e.toLowerCase());
      const bad = badUploadType(entries);
      if (bad !== undefined) p.report(`UPLOAD_TYPES entries must be media types (image/png, image/*) or extensions (.png); "${bad}" is neither`);
      else if (!entries.some((e) => e.startsWith('.')) || !entries.some((e) => e.includes('/'))) p.report('UPLOAD_TYPES needs at least one media type and one extension: a file must match both');
      return Object.freeze(entries);
    },
    public: (uploadTypes) => ({ limits: { uploadTypes: [...uploadTypes] } }),
  }),
  maxUploadMemoryBytes: setting({
    env: 'MAX_UPLOAD_MEMORY_BYTES', group, default: 'larger of 256 MiB and four largest uploads',
    doc: "bytes all uploads in progress may hold at once, counted as they arrive; at least one whole upload. One conversation may hold a quarter of it (at least one whole upload), so one visitor cannot make another's upload fail",
    read: (p) => {
      // One request may need this much; by default at least four such at once, and 256 MiB.
      const oneUpload = maxFormBytes(readUploadFiles(p.quiet()), readUploadBytes(p.quiet()));
      const bytes = p.int('MAX_UPLOAD_MEMORY_BYTES', Math.max(256 * 1024 * 1024, 4 * oneUpload), 1, Number.MAX_SAFE_INTEGER);
      if (bytes < oneUpload) {
        p.report(`MAX_UPLOAD_MEMORY_BYTES must hold one whole upload: at least ${oneUpload} (MAX_UPLOAD_FILES × MAX_UPLOAD_BYTES + ${FORM_OVERHEAD_BYTES})`);
      }
      return bytes;
    },
  }),
  bodyIdleTimeoutMs: setting({
    env: 'BODY_IDLE_TIMEOUT_MS', group, default: '`10000`', example: '10000',
    doc: 'a request body (JSON, upload or webhook) that sends nothing this long is cut (100–600000; checked every second)',
    read: (p) => p.int('BODY_IDLE_TIMEOUT_MS', 10_000, 100, 600_000),
  }),
  webhookBodyTimeoutMs: setting({
    env: 'WEBHOOK_BODY_TIMEOUT_MS', group, default: '`10000`', example: '10000',
    doc: 'a webhook body not complete this long after it began is cut, however slowly it trickles (100–600000)',
    read: (p) => p.int('WEBHOOK_BODY_TIMEOUT_MS', 10_000, 100, 600_000),
  }),
  requestTimeoutMs: setting({
    env: 'REQUEST_TIMEOUT_MS', group, doc: 'longest time to receive a whole request (1000–3600000)', default: '`120000`', example: '120000',
    read: (p) => p.int('REQUEST_TIMEOUT_MS', 120_000, 1000, 3_600_000),
  }),
  headersTimeoutMs: setting({
    env: 'HEADERS_TIMEOUT_MS', group, doc: "longest time to receive a request's headers (1000–3600000); not longer than `REQUEST_TIMEOUT_MS`", default: '`10000`', example: '10000',
    read: (p) => p.int('HEADERS_TIMEOUT_MS', 10_000, 1000, 3_600_000),
  }),
  heartbeatSec: setting({
    env: 'HEARTBEAT_SEC', group, doc: 'comment line on an idle stream (1–25)', default: '`15`', example: '15',
    read: (p) => p.int('HEARTBEAT_SEC', 15, 1, 25),
  }),
  streamReconnectSec: setting({
    env: 'STREAM_RECONNECT_SEC', group, default: '`60`', example: '60',
    doc: 'how long after its stream closed a stream ticket may reopen it with `Last-Event-ID`, as a standard `EventSource` does (0–3600)',
    read: (p) => p.int('STREAM_RECONNECT_SEC', 60, 0, 3600),
  }),
  maxStreamsPerConversation: setting({
    env: 'MAX_STREAMS_PER_CONVERSATION', group, default: '`20`', example: '20',
    doc: 'open event streams of one conversation on one instance (1–1000); one more is `429 too_many_streams`',
    read: (p) => p.int('MAX_STREAMS_PER_CONVERSATION', 20, 1, 1000),
  }),
  maxStreamsPerClient: setting({
    env: 'MAX_STREAMS_PER_CLIENT', group, default: '`500`', example: '500',
    doc: 'open event streams from one client address on one instance (1–100000); generous, since a company or mobile network puts many visitors behind one address',
    read: (p) => p.int('MAX_STREAMS_PER_CLIENT', 500, 1, 100_000),
  }),
};

function readOrigins(p: Parser, simulator: boolean): string[] {
  const origins = p.list('ALLOWED_ORIGINS', simulator ? ['*'] : undefined).map((o) => o.replace(/\/+$/, ''));
  for (const origin of origins) {
    if (origin === '*') {
      if (!simulator) p.report('ALLOWED_ORIGINS may be * only in the demo; list the exact origins');
    } else if (!isOrigin(origin)) {
      p.report(`ALLOWED_ORIGINS has "${origin}", which is not an origin like https://www.example.com`);
    }
  }
  return origins;
}

function readPublicOrigin(p: Parser, simulator: boolean): string | undefined {
  const origin = p.optional('PUBLIC_ORIGIN')?.replace(/\/+$/, '');
  if (origin !== undefined && !isOrigin(origin)) p.report(`PUBLIC_ORIGIN is "${origin}", which is not an origin like https://chat.example.com`);
  if (origin !== undefined || !simulator) return origin;
  // The demo serves its pages itself: their origin may use the chat whatever ALLOWED_ORIGINS lists.
  // PORT is reported by its own setting; a free port (0) is known only once listening (demo/main.ts).
  const port = p.quiet().int('PORT', 8787, 0, 65535);
  return port > 0 ? `http://localhost:${port}` : undefined;
}

function readProxyTrust(p: Parser): ProxyTrust | undefined {
  const raw = p.optional('TRUST_PROXY');
  if (raw === undefined) return undefined;
  const trust = parseProxyTrust(raw);
  if (typeof trust !== 'string') return trust;
  p.report(`TRUST_PROXY: ${trust}`);
  return undefined;
}
