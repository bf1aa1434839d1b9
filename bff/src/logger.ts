/** Structured JSON logs, one line per record. Callers never pass secrets; known secret fields are masked anyway. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
const SECRET_FIELD = /token|secret|authorization|password|api_?key|bot_?key/i;

/** A logger writing JSON lines to a stream (stdout by default), dropping records below `level`. */
export function createLogger(level: keyof typeof LEVELS, write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const min = LEVELS[level];
  const log = (lvl: Exclude<keyof typeof LEVELS, 'silent'>) => (msg: string, fields?: Record<string, unknown>) => {
    if (LEVELS[lvl] < min) return;
    const record: Record<string, unknown> = { time: new Date().toISOString(), level: lvl, msg };
    if (fields) for (const [k, v] of Object.entries(fields)) record[k] = SECRET_FIELD.test(k) ? '[redacted]' : v;
    write(JSON.stringify(record) + '\n');
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = createLogger('silent');
