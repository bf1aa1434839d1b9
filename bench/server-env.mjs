// The one environment every benchmark gives the BFF: webhooks and streams only, the service never
// called. Plain JS, so bench/ingest-inproc.mjs (run by node itself) shares it with the TypeScript
// benches (types in server-env.d.mts).

/** The webhook secret the benches sign with (and the twins verify with). */
export const SECRET = 'bench-webhook-secret';

/** The session JWT secret of a benched BFF. */
export const JWT_SECRET = 'bench-jwt-secret-0123456789-0123456789';

/** The BFF's environment under benchmark, with `extra` on top. */
export function serverEnv(extra = {}) {
  return {
    UPSTREAM_BASE_URL: 'http://127.0.0.1:9', // never called: webhooks and streams only
    UPSTREAM_ACCESS_TOKEN: 'unused',
    AGENT_BOT_KEY: 'unused',
    WEBHOOK_SECRET: SECRET,
    SESSION_JWT_SECRET: JWT_SECRET,
    ALLOWED_ORIGINS: 'http://bench.local',
    LOG_LEVEL: 'info',
    ...extra,
  };
}
