import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import type { AppDeps, AppEnv } from './context.js';
import { AppError, STATUS_BY_CODE } from './errors.js';
import { featuresOf } from './features.js';
import { requireFeature } from './middleware.js';

type Env = Record<string, string>;
const agent = { mode: 'agent' } as AppDeps['chat'];
const model = { mode: 'model', stop: async () => {} } as unknown as AppDeps['chat'];
const flowClient = {} as AppDeps['flows'];

function deps(env: Env, chat = agent, flows: AppDeps['flows'] | null = flowClient): AppDeps {
  return { config: loadConfig({ DEMO: 'true', ...env }), chat, flows: flows ?? undefined } as AppDeps;
}

describe('features: one set of rules', () => {
  it.each([
    ['nothing configured', deps({}), { escalation: false, upload: false, flows: [], stop: false }],
    ['an operator address in agent mode', deps({ ESCALATION_OPERATOR_EMAIL: 'op@example.com' }), { escalation: true }],
    ['an operator address in model mode', deps({ ESCALATION_OPERATOR_EMAIL: 'op@example.com' }, model), { escalation: false, stop: true }],
    ['an upload flow', deps({ FLOW_TOKENS: 'upload:t,lead:u', UPLOAD_FLOW: 'upload' }), { upload: true, flows: ['lead'] }],
    ['flows without a flow client', deps({ FLOW_TOKENS: 'upload:t,lead:u', UPLOAD_FLOW: 'upload' }, agent, null), { upload: false, flows: [] }],
  ])('%s', (_name, d, expected) => {
    expect(featuresOf(d)).toMatchObject(expected);
  });

  it('is decided once per app', () => {
    const d = deps({});
    expect(featuresOf(d)).toBe(featuresOf(d));
  });
});

describe('requireFeature', () => {
  async function status(d: AppDeps, name: Parameters<typeof requireFeature>[1]) {
    const app = new Hono<AppEnv>();
    app.post('/x', requireFeature(d, name), (c) => c.json({ ok: true }));
    app.onError((err, c) => (err instanceof AppError ? c.json({ error: { code: err.code } }, STATUS_BY_CODE[err.code] as 403) : c.json({}, 500)));
    const res = await app.request('/x', { method: 'POST' });
    return { status: res.status, body: (await res.json()) as unknown };
  }

  it.each([
    ['escalation', deps({}), 403],
    ['escalation', deps({ ESCALATION_OPERATOR_EMAIL: 'op@example.com' }), 200],
    ['upload', deps({}), 403],
    ['upload', deps({ FLOW_TOKENS: 'upload:t', UPLOAD_FLOW: 'upload' }), 200],
    ['flows', deps({ FLOW_TOKENS: 'upload:t', UPLOAD_FLOW: 'upload' }), 403],
    ['flows', deps({ FLOW_TOKENS: 'lead:t' }), 200],
    ['stop', deps({}), 403],
    ['stop', deps({}, model), 200],
  ] as const)('%s → %i', async (name, d, expected) => {
    const res = await status(d, name);
    expect(res.status).toBe(expected);
    if (expected === 403) expect(res.body).toEqual({ error: { code: 'feature_disabled' } });
  });
});
