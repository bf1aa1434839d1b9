import { vi } from 'vitest';

/**
 * What a BFF started in this process prints, as a spawned one's `output` would hold it: its log
 * lines (JSON on stdout, taken from the stream and not shown) and anything said through the
 * console (a library's warning, a stack trace). `restore()` puts both back.
 */
export function captureOutput(): { lines: string[]; restore(): void } {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const spies = [
    vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
      if (!String(chunk).startsWith('{"time"')) return write(chunk, ...rest);
      lines.push(...String(chunk).split('\n').filter(Boolean));
      return true;
    }) as typeof process.stdout.write),
    ...(['error', 'warn', 'info', 'log', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void lines.push(args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' '))),
    ),
  ];
  return { lines, restore: () => spies.forEach((spy) => spy.mockRestore()) };
}
