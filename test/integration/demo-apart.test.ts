import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type SpawnedServer } from '../helpers/server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs an entry from source with exactly `env` (plus PATH) and collects how it ended. */
function run(entry: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe('the demo apart from the server', () => {
  let demo: SpawnedServer | undefined;
  afterAll(() => demo?.stop());

  it('NODE_ENV=production with nothing configured refuses to start, with one line naming the variables', async () => {
    const { code, stderr } = await run('bff/src/server.ts', { NODE_ENV: 'production' });
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'Configuration error: NODE_ENV=production needs UPSTREAM_BASE_URL, or CHAT_MODE=model with GATEWAY_BASE_URL; set DEMO=true to run the demo on purpose',
    ]);
  });

  it('the server alone does not run the demo, even when asked', async () => {
    const { code, stderr } = await run('bff/src/server.ts', { NODE_ENV: 'production', DEMO: 'true' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Configuration error: DEMO=true runs from the demo entry/);
  });

  it('DEMO=true runs the demo in production: shop, simulator and a working chat', async () => {
    demo = await startServer({ NODE_ENV: 'production', DEMO: 'true', SIM_REPLY_DELAY_MS: '5' });
    expect(demo.output.some((line) => line.includes('"simulator":true'))).toBe(true);
    // Besides the JSON log line, a block a person can read says which pages to open.
    await expect.poll(() => demo!.output.join('\n')).toContain(`Shop (the chat in the corner)   http://localhost:${demo.port}/\n`);
    const pages = demo.output.join('\n');
    expect(pages).toContain(`Operator console                http://localhost:${demo.port}/console\n`);
    expect(pages).toContain(`Webhook inspector               http://localhost:${demo.port}/inspector\n`);
    const shop = await fetch(`${demo.url}/`);
    expect(shop.status).toBe(200);
    expect(await shop.text()).toContain('widget.js');
    const session = await fetch(`${demo.url}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'hi' }) });
    expect(session.status).toBe(201);
  });
});
