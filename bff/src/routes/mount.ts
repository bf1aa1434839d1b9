/**
 * Mounts a route of the route table (`shared/routes.ts`) with the standard middleware chain:
 * the caller's check (`requireSession` for a session, a user token or a stream ticket), then the
 * route's own middleware (rate limits, features), then, for a JSON body, its bytes read within the
 * limits (`jsonBytes`) and checked by the table's schema (`jsonBody`), then the handler.
 * A multipart route (`form` in the table) reads its body in its handler.
 */
import type { Handler, Hono, MiddlewareHandler } from 'hono';
import type * as v from 'valibot';
import * as bodies from '../../../shared/bodies.js';
import { ROUTES, type BodyName, type BodySchema, type Caller, type PathOf, type RouteKey, type Routes } from '../../../shared/routes.js';
import type { Config } from '../config.js';
import type { AppDeps, AppEnv } from '../context.js';
import { jsonBody, jsonBytes } from '../lib/body.js';
import { requireSession } from '../middleware.js';

type Bodies = typeof bodies;
type FactoryName = { [N in BodyName]: Bodies[N] extends v.GenericSchema ? never : N }[BodyName];
/** The schemas a server's settings shape, built once from its config. */
const CONFIGURED: { [N in FactoryName]: (config: Config) => BodySchema<N> } = {
  UserVariablesBody: (config) => bodies.UserVariablesBody(config.userVariables),
};

/** The JSON body a route's handler reads with `c.req.valid('json')`. */
type JsonInput<K extends RouteKey> = Routes[K] extends { form: BodyName }
  ? object
  : Routes[K] extends { body: infer N extends BodyName }
    ? { in: { json: v.InferInput<BodySchema<N>> }; out: { json: v.InferOutput<BodySchema<N>> } }
    : object;

export type RouteHandler<K extends RouteKey> = Handler<AppEnv, PathOf<K>, JsonInput<K>>;

/** The middleware that lets `caller` through (none for anyone). */
function callerCheck(deps: AppDeps, caller: Caller): MiddlewareHandler<AppEnv>[] {
  switch (caller) {
    case 'anyone':
      return [];
    case 'session':
      return [requireSession(deps)];
    case 'sessionOrUser':
      return [requireSession(deps, { userToken: true })];
    case 'stream':
      return [requireSession(deps, { allowQuery: true })];
  }
}

function schemaOf(deps: AppDeps, name: BodyName): v.GenericSchema {
  return Object.hasOwn(CONFIGURED, name) ? CONFIGURED[name as FactoryName](deps.config) : (bodies[name] as v.GenericSchema);
}

/**
 * A mounter for `app`: `route(key, use, handler)` mounts the table's route `key` with the standard
 * chain around `use` (the route's own middleware, run after the caller's check and before the body).
 */
export function routeMounter(app: Hono<AppEnv>, deps: AppDeps) {
  return <K extends RouteKey>(key: K, use: MiddlewareHandler<AppEnv>[], handler: RouteHandler<K>): void => {
    const spec: { caller: Caller; body?: BodyName; form?: BodyName } = ROUTES[key];
    const [method, path] = key.split(' ') as [string, string];
    const json = spec.body !== undefined && spec.form === undefined ? [jsonBytes(deps.config.bodyIdleTimeoutMs), jsonBody(schemaOf(deps, spec.body))] : [];
    const chain = [...callerCheck(deps, spec.caller), ...use, ...json] as MiddlewareHandler<AppEnv>[];
    const on = app.on as (method: string, path: string, ...handlers: Handler<AppEnv>[]) => void;
    on(method, path, ...chain, handler as unknown as Handler<AppEnv>);
  };
}
