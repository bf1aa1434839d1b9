/** Talking to the BFF over `fetch`: JSON in and out, errors as `ApiError` with the body's code. */

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

export interface RequestInit {
  method?: string;
  body?: unknown;
  token?: string;
  /** `no-cache`: asks the BFF again even where the browser keeps a fresh copy. */
  cache?: RequestCache;
}

/** Calls `base + path` and returns the parsed JSON body (`{}` when there is none). */
export async function request<T>(base: string, path: string, init: RequestInit = {}): Promise<T> {
  const headers: Record<string, string> = {};
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = 'Bearer ' + init.token;
  let res: Response;
  try {
    res = await fetch(base + path, {
      method: init.method || (init.body === undefined ? 'GET' : 'POST'),
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
  return data as T;
}

/** The `ApiError` for a refused answer with the parsed body `data`. */
export function refusal(status: number, data: unknown): ApiError {
  const err = (data as { error?: { code?: string; message?: string } }).error;
  return new ApiError(status, err?.code || 'http_' + status, err?.message || 'Request failed');
}
