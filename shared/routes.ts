/**
 * The BFF's route table: every `/api` route, written once. The BFF mounts each entry through one helper
 * (`bff/src/routes/mount.ts`: the caller's middleware, the JSON body read and checked by its schema);
 * the widget calls them through one typed client (`widget/src/api.ts`), which imports this file's
 * types only (`Routes`), never the table or its schemas: the chat bundle carries no valibot.
 *
 * A route's key is its method and path as Hono writes it (`:name` a path parameter). An entry says
 * - `caller`: who may call: `anyone`; `session` (a conversation's access token); `sessionOrUser` (that,
 *   or a signed-in user's user token); `stream` (a session token or a stream ticket in the query);
 * - `body`: the JSON body's schema, by its name in `shared/bodies.ts` (none: the route reads no body);
 * - `form`: a multipart body's text parts, by their schema's name in `shared/bodies.ts`; the route
 *   reads the form itself (a flow also takes `body` as JSON instead);
 * - `answer`: the JSON answer's type (`shared/types.ts`), a type only.
 * `docs/api.md` documents exactly these routes (test/integration/api-docs.test.ts), and the BFF mounts
 * exactly these under `/api` (test/integration/routes.test.ts). The routes outside `/api` are listed
 * in `OTHER_ROUTES` below.
 */
import type * as v from 'valibot';
import type * as bodies from './bodies.js';
import type { ConversationsList, IdentifyResponse, MessagesPage, PublicConfig, SessionResponse, TokenResponse, UserTokenResponse } from './types.js';

export type Caller = 'anyone' | 'session' | 'sessionOrUser' | 'stream';
type Bodies = typeof bodies;
/** The names of `shared/bodies.ts`'s body schemas (a schema, or a factory of one such as `UserVariablesBody`). */
export type BodyName = Extract<keyof Bodies, `${string}Body` | `${string}Fields`>;
/** The schema a body name stands for (a factory's product). */
export type BodySchema<N extends BodyName> = Bodies[N] extends (...args: never[]) => infer S ? Extract<S, v.GenericSchema> : Extract<Bodies[N], v.GenericSchema>;

export interface RouteSpec {
  readonly caller: Caller;
  readonly body?: BodyName;
  readonly form?: BodyName;
  /** The answer's type; `undefined` at run time. */
  readonly answer: unknown;
}

/** Carries an answer type into the table; nothing at run time. */
const answer = <T>(): T => undefined as T;
/** `202 {}`, `204` and the like: an answer with nothing to read. */
export type Accepted = Record<string, never>;

export const ROUTES = {
  'GET /api/config': { caller: 'anyone', answer: answer<PublicConfig>() },
  'POST /api/session': { caller: 'anyone', body: 'SessionBody', answer: answer<SessionResponse | UserTokenResponse>() },
  'POST /api/token': { caller: 'anyone', body: 'TokenBody', answer: answer<TokenResponse>() },
  'POST /api/resume': { caller: 'anyone', body: 'ResumeBody', answer: answer<SessionResponse>() },
  'POST /api/messages': { caller: 'session', body: 'MessageBody', answer: answer<Accepted>() },
  'GET /api/messages': { caller: 'sessionOrUser', answer: answer<MessagesPage>() },
  'PATCH /api/user': { caller: 'session', body: 'UserVariablesBody', answer: answer<Accepted>() },
  'POST /api/escalate': { caller: 'session', answer: answer<Accepted>() },
  'POST /api/archive': { caller: 'session', answer: answer<Accepted>() },
  'POST /api/flows/:name': { caller: 'session', body: 'FlowBody', form: 'FlowFields', answer: answer<{ jobId: string }>() },
  'POST /api/upload': { caller: 'session', form: 'UploadFields', answer: answer<{ jobId: string }>() },
  'POST /api/feedback': { caller: 'session', body: 'FeedbackBody', answer: answer<Accepted>() },
  'POST /api/stop': { caller: 'session', answer: answer<Accepted>() },
  'POST /api/csat': { caller: 'session', body: 'CsatBody', answer: answer<Accepted>() },
  'POST /api/contact': { caller: 'session', body: 'ContactBody', answer: answer<Accepted>() },
  'POST /api/identify': { caller: 'session', body: 'IdentifyBody', answer: answer<IdentifyResponse>() },
  'GET /api/conversations': { caller: 'sessionOrUser', answer: answer<ConversationsList>() },
  'POST /api/conversations': { caller: 'sessionOrUser', body: 'NewConversationBody', answer: answer<SessionResponse>() },
  'POST /api/conversations/:sessionId/current': { caller: 'sessionOrUser', answer: answer<SessionResponse>() },
  'POST /api/events/ticket': { caller: 'session', answer: answer<{ ticket: string }>() },
  // An event stream (text/event-stream), opened by EventSource: no JSON answer.
  'GET /api/events': { caller: 'stream', answer: answer<never>() },
  // The links of an email to a visitor, opened by a mail client or a browser: JSON or an HTML page.
  'POST /api/email/unsubscribe': { caller: 'anyone', answer: answer<Accepted>() },
  'GET /api/email/unsubscribe': { caller: 'anyone', answer: answer<never>() },
} as const satisfies Record<string, RouteSpec>;

export type Routes = typeof ROUTES;
export type RouteKey = keyof Routes;

/** The routes outside `/api`: the service's webhook, operations and the widget's files (mounted by their own code). */
export const OTHER_ROUTES = [
  'POST /webhooks/agent',
  'GET /healthz',
  'GET /readyz',
  'GET /metrics',
  'GET /widget.js',
  'GET /widget.css',
  'GET /widget-locales/:file',
] as const;

/** The path parameters of a path (`/api/flows/:name` → `{name: string}`). */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, never>;

type Spec<K extends RouteKey> = Routes[K];
/** What a route's body may be: its JSON schema's input, or a FormData for a multipart route. */
export type RequestBody<K extends RouteKey> =
  | (Spec<K> extends { body: infer N extends BodyName } ? v.InferInput<BodySchema<N>> : never)
  | (Spec<K> extends { form: BodyName } ? FormData : never);
export type Answer<K extends RouteKey> = Spec<K>['answer'];
export type PathOf<K extends RouteKey> = K extends `${string} ${infer P}` ? P : never;
export type MethodOf<K extends RouteKey> = K extends `${infer M} ${string}` ? M : never;
