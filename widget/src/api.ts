/** Talking to the BFF over `fetch`: JSON in and out, errors as `ApiError` with the body's code. */
import type { Answer, PathOf, PathParams, RequestBody, RouteKey } from '../../shared/routes.js';

/** A refused request (`status` and the BFF's error `code`) or a network failure (`status` 0, code `network`). */
export class ApiError extends Error {
  // `declare` fields: no class-field helper in the bundle.
  declare readonly status: number;
  declare readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    Object.assign(this, { status, code, name: 'ApiError' });
  }
}

/** A route's JSON body (a multipart route's form goes by XMLHttpRequest, for its progress: upload.ts). */
type JsonBody<K extends RouteKey> = Exclude<RequestBody<K>, FormData>;

/** What a call of route `K` sends: its body as the route table types it, its path parameters, a query. */
export type CallInit<K extends RouteKey> = {
  token?: string;
  /** `no-cache`: asks the BFF again even where the browser keeps a fresh copy. */
  cache?: RequestCache;
  /** Query parameters (`GET /api/messages`'s `limit`, `offset`, `sessionId`). */
  query?: Record<string, string | number>;
} & ([JsonBody<K>] extends [never] ? { body?: undefined } : { body: JsonBody<K> }) &
  ([keyof PathParams<PathOf<K>>] extends [never] ? { params?: undefined } : { params: PathParams<PathOf<K>> });
/** The init of a call of `K`: optional where the route takes no body and no path parameter. */
export type CallArgs<K extends RouteKey> = object extends CallInit<K> ? [init?: CallInit<K>] : [init: CallInit<K>];

/**
 * Calls the route `key` of the route table (`shared/routes.ts`) at `base` and returns its parsed JSON
 * answer (`{}` when there is none), typed by the table; its body is typed by the route's schema.
 */
export async function call<K extends RouteKey>(base: string, key: K, ...args: CallArgs<K>): Promise<Answer<K>> {
  const init: CallInit<K> = args[0] || ({} as CallInit<K>);
  // A key is the method, a space and the path (`POST /api/flows/:name`).
  const [method, pattern] = key.split(' ') as [string, string];
  let path = pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent((init.params as Record<string, string>)[name]!));
  if (init.query) path += '?' + new URLSearchParams(init.query as Record<string, string>);
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = 'Bearer ' + init.token;
  let res: Response;
  try {
    res = await fetch(base + path, {
      method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      cache: init.cache,
    });
  } catch (e) {
    // fetch only rejects when the request never got an answer: offline, DNS, CORS, reset.
    throw new ApiError(0, 'network', String(e));
  }
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw refusal(res.status, data);
  return data as Answer<K>;
}

/** The `ApiError` for a refused answer with the parsed body `data`. */
export function refusal(status: number, data: unknown): ApiError {
  const err = (data as { error?: { code?: string; message?: string } }).error;
  return new ApiError(status, err?.code || 'http_' + status, err?.message || 'Request failed');
}
