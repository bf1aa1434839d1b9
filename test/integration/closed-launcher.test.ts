// CLOSED_LAUNCHER=hide works only where the page's tag asks: the server says so once, at start.
import { afterEach, expect, it, vi } from 'vitest';
import { startBff } from '../helpers/bff.js';

afterEach(() => vi.restoreAllMocks());

async function startLines(env: Record<string, string>): Promise<Array<{ level: string; msg: string }>> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array) => lines.push(String(chunk)) > 0) as typeof process.stdout.write);
  try {
    const bff = await startBff({ LOG_LEVEL: 'info', ...env });
    await bff.stop();
  } finally {
    spy.mockRestore();
  }
  return lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
}

it('logs one line at start saying what CLOSED_LAUNCHER=hide needs from the page', async () => {
  const lines = (await startLines({ CLOSED_LAUNCHER: 'hide', SUPPORT_HOURS: 'Mon-Fri 09:00-17:00' })).filter((l) => l.msg.includes('CLOSED_LAUNCHER'));
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ level: 'info', msg: expect.stringContaining('data-launcher="hours"') });
});

it('warns when CLOSED_LAUNCHER=hide has no support hours to follow, and says nothing for show', async () => {
  expect((await startLines({ CLOSED_LAUNCHER: 'hide' })).filter((l) => l.msg.includes('CLOSED_LAUNCHER'))).toEqual([
    expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/^CLOSED_LAUNCHER=hide does nothing without SUPPORT_HOURS/) }),
  ]);
  expect((await startLines({ CLOSED_LAUNCHER: 'show' })).filter((l) => l.msg.includes('CLOSED_LAUNCHER'))).toEqual([]);
});
