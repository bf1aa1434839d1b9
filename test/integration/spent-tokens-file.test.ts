import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../bff/src/config.js';
import { call, JWT_SECRET, WEBHOOK_SECRET } from '../helpers/bff.js';
import { startServer, type SpawnedServer } from '../helpers/server.js';

// Memory mode keeps spent refresh tokens in a file. Where that file cannot be written (a
// container with a read-only root), the default must not stop the server; a chosen file must.
const env = { SESSION_JWT_SECRET: JWT_SECRET, WEBHOOK_SECRET, SIM_REPLY_DELAY_MS: '5', SIM_DUPLICATE_RATE: '0' };
let dir: string;
let notADirectory: string;
const running: SpawnedServer[] = [];
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'parley-spent-'));
  // Nothing can be created below a regular file, not even by root (ENOTDIR).
  notADirectory = join(dir, 'a-file');
  await writeFile(notADirectory, '');
});

/** The default file's path under `TMPDIR=folder`, as the server computes it. */
function defaultFileIn(folder: string): string {
  const before = process.env.TMPDIR;
  process.env.TMPDIR = folder;
  try {
    return loadConfig({ ...env, DEMO: 'true' }).spentTokensFile!;
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
}
afterAll(async () => {
  await Promise.all(running.map((s) => s.stop()));
  await rm(dir, { recursive: true, force: true });
});

describe('the spent-tokens file of memory mode', () => {
  it('when the default file cannot be written, the server starts, says so once, and still refuses a reused refresh token', async () => {
    // A folder where the default file should be: it can be neither read nor replaced as a file.
    const folder = join(dir, 'tmp');
    await mkdir(defaultFileIn(folder), { recursive: true });
    const server = await startServer({ ...env, TMPDIR: folder });
    running.push(server);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const warnings = server.output.filter((line) => line.includes('spent refresh tokens kept in memory only'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 'warn', reason: 'EISDIR' });

    const session = (await call(server.url, 'POST', '/api/session', { body: { text: 'hello' } })).body as { refreshToken: string };
    expect((await call(server.url, 'POST', '/api/token', { body: { refreshToken: session.refreshToken } })).status).toBe(200);
    const reused = await call(server.url, 'POST', '/api/token', { body: { refreshToken: session.refreshToken } });
    expect(reused.status).toBe(401);
    expect(reused.body.error.code).toBe('refresh_token_reused');
  });

  it('a SPENT_TOKENS_FILE that cannot be written stops the server with one configuration line', async () => {
    const failed = startServer({ ...env, SPENT_TOKENS_FILE: join(notADirectory, 'spent-tokens') });
    await expect(failed).rejects.toThrow(/server exited with 1:\nConfiguration error: SPENT_TOKENS_FILE cannot be written \(ENOTDIR\): name a writable file/);
  });
});
