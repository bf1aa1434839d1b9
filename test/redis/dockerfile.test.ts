import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// In the redis project because it runs in CI after `npm run build` and may take a while
// (it installs production dependencies into a temp folder). No Docker engine is needed.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SCRIPT = join(ROOT, 'scripts/check-dockerfile.mjs');

function check(dockerfile?: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...(dockerfile ? [dockerfile] : [])], { cwd: ROOT, timeout: 110_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: stdout + stderr });
    });
  });
}

describe('Dockerfile', () => {
  it('passes the static checks and its final stage, run from a temp folder, serves the demo', { timeout: 120_000 }, async () => {
    const { code, output } = await check();
    expect(output).toContain('GET /widget.js → 200');
    expect(output).toContain('SIGTERM: graceful exit 0');
    expect(code, output).toBe(0);
  });

  it('is refused when the image would run as root or ship the sources start.mjs rebuilds from', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-dockerfile-'));
    try {
      const broken = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
        .replace(/^USER node$/m, 'USER root')
        .replace(/^COPY scripts\/start\.mjs .*$/m, 'COPY scripts/ scripts/\nCOPY bff/ bff/');
      writeFileSync(join(dir, 'Dockerfile'), broken);
      const { code, output } = await check(join(dir, 'Dockerfile'));
      expect(code).toBe(1);
      expect(output).toContain('final stage runs as root');
      expect(output).toContain('final stage copies bff/, which holds widget/src or bff/src');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads a heredoc RUN and a JSON-form COPY (dockerfile-ast), so the checks still speak about the stages', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-dockerfile-'));
    try {
      // USER root keeps the check static (no install); the hand-written parser stopped at the heredoc.
      const other = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
        .replace(/^RUN npm run build$/m, 'RUN <<EOF\nnpm run build\nls dist\nEOF')
        .replace(/^COPY scripts\/start\.mjs scripts\/start\.mjs$/m, 'COPY ["scripts/start.mjs", "scripts/start.mjs"]')
        .replace(/^USER node$/m, 'USER root');
      writeFileSync(join(dir, 'Dockerfile'), other);
      const { code, output } = await check(join(dir, 'Dockerfile'));
      expect(code).toBe(1);
      expect(output).toContain('PROBLEM  final stage runs as root');
      expect(output).toContain('1 problem(s)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
