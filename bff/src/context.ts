import type { HttpBindings } from '@hono/node-server';
import type { AcceptedWrites } from './chat/accepted-writes.js';
import type { Config } from './config.js';
import type { ByteLease } from './lib/byte-budget.js';
import type { Continuity } from './email/continuity.js';
import type { LinkTokens } from './email/links.js';
import type { Logger } from './logger.js';
import type { TokenService, SessionClaims, TokenUser } from './lib/tokens.js';
import type { WebhookVerifier } from './lib/webhook-verify.js';
import type { Heartbeat } from './lib/sse.js';
import type { IdentityVerifier } from './lib/identity.js';
import type { ChatBackend } from './ports/chat-backend.js';
import type { EventStore } from './ports/event-store.js';
import type { FeedbackSink } from './ports/feedback.js';
import type { FlowClient } from './ports/flows.js';
import type { Observer } from './ports/observer.js';
import type { StartRecords } from './ports/start-records.js';
import type { OnceStore } from './ports/once-store.js';
import type { RateLimiter } from './ports/rate-limiter.js';
import type { UserDirectory } from './ports/user-directory.js';

/** The built widget script, prepared once at start-up. */
export interface WidgetAsset {
  body: Uint8Array;
  gzip?: Uint8Array;
  brotli?: Uint8Array;
  etag: string;
  /** `/widget-<hash>.js`, the same bytes under a name that changes with them (`versionedPath`). */
  versioned?: string;
  /** `sha384-…`, for `<script integrity>`. */
  integrity: string;
  /** The widget's strings by file name (`de.json` of `widget-locales/`), as the build wrote them. */
  locales: ReadonlyMap<string, Uint8Array>;
  /** `widget.css`, for browsers without constructable stylesheets. */
  css?: Uint8Array;
  /** The chat the loader fetches and its parts and Markdown chunks, by their hashed file names: their bytes, served immutable. */
  chunks: ReadonlyMap<string, { body: Uint8Array; gzip: Uint8Array; brotli: Uint8Array }>;
}

/** Everything the app needs, built by `server.ts` (or a test). The app reads no environment. */
export interface AppDeps {
  config: Readonly<Config>;
  store: EventStore;
  rateLimiter: RateLimiter;
  chat: ChatBackend;
  tokens: TokenService;
  /** Keys remembered for a while: spent tokens and tickets, the clientIds of messages the service took. */
  onceStore: OnceStore;
  /** What each conversation start with a `startKey` made, so a repeat gets it again (chat/start-once.ts). */
  starts: StartRecords;
  /** Which conversations belong to which signed-in user (docs/api.md "Signed-in users"). */
  users: UserDirectory;
  /** Verifies identity tokens; absent when no IDENTITY_SECRET or IDENTITY_JWKS_URL is set. */
  identity?: IdentityVerifier;
  verifier: WebhookVerifier;
  heartbeat: Heartbeat;
  logger: Logger;
  observer?: Observer;
  /** Prometheus text for `/metrics`; the route is absent when undefined. */
  metrics?: { render(): Promise<string> };
  widget?: WidgetAsset;
  /** Flow triggers (area C); without it the flow and upload routes answer `feature_disabled`. */
  flows?: FlowClient;
  /** Store writes owed after the service accepted something, repaired when the store fails (see AcceptedWrites). */
  writes?: AcceptedWrites;
  /** Where votes go besides the log (FEEDBACK_WEBHOOK_URL); absent when not configured. */
  feedback?: FeedbackSink;
  /** Emails to visitors who left before an operator answered (SMTP_URL); absent when email is off. */
  continuity?: Continuity;
  /** The continue and unsubscribe links of those emails; absent when email is off. */
  links?: LinkTokens;
  /** Extra readiness checks beyond `store.ping()` (e.g. Redis connections). */
  ready?: () => Promise<void>;
  now?: () => number;
}

/** Hono environment: Node bindings (absent under `app.request()`) and per-request variables. */
export interface AppEnv {
  Bindings: Partial<HttpBindings>;
  Variables: {
    session: SessionClaims;
    /** Spends the stream ticket that opened this request (`TokenService.checkTicket`); unset without one. */
    spendTicket: (() => Promise<void>) | undefined;
    /** The signed-in user, on routes that also take a user token (`requireSession(deps, {userToken: true})`). */
    user: TokenUser | undefined;
    requestId: string;
    uploadMemory: ByteLease;
    /** The JSON body `jsonBytes` read and parsed, for `jsonBody` to check. */
    jsonBody: Record<string, unknown>;
  };
}
