import { randomUUID } from 'node:crypto';
import { open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { StoreUnavailableError } from '../errors.js';
import type { OnceStore } from '../ports/once-store.js';

/** Lines appended before the file is rewritten with the live claims only (and at least twice those). */
const COMPACT_AFTER_LINES = 10_000;

/**
 * Claim-once keys in process memory and in an append-only file, read back when the process
 * starts: a BFF in memory mode refuses a refresh token spent before its restart (without this
 * it would take it again), and the visitors whose tokens were not spent keep their sessions.
 * One line per claim, `[untilMs,"key"]`; a torn last line (a crash mid-write) is skipped.
 * A claim answers only once its line is written, so a restart never forgets an answered claim.
 * One file per BFF: memory mode is one process.
 */
export class FileOnceStore implements OnceStore {
  private readonly until = new Map<string, number>();
  /** File operations, one at a time, in order (appends and rewrites must not interleave). */
  private queue: Promise<unknown> = Promise.resolve();
  private file: FileHandle | undefined;
  private appended = 0;

  private constructor(
    private readonly path: string,
    private readonly now: () => number,
  ) {}

  /** Reads the claims still live from `path` (missing is fine: nothing claimed yet), rewrites it with them, opens it. */
  static async open(path: string, now: () => number = Date.now): Promise<FileOnceStore> {
    const store = new FileOnceStore(path, now);
    let text = '';
    try {
      text = await readFile(path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    const at = now();
    for (const line of text.split('\n')) {
      const claim = parseLine(line);
      // The last line of a key wins: a mark may shorten what an earlier line said.
      if (claim) store.until.set(claim[1], claim[0]);
    }
    for (const [key, until] of store.until) {
      if (until <= at) store.until.delete(key);
    }
    await store.rewrite();
    return store;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const until = this.until.get(key);
    if (until !== undefined && until > now) return false;
    // Taken in memory first, in the same tick as the check: a concurrent claim of the key loses.
    const mine = now + ttlMs;
    this.until.set(key, mine);
    try {
      await this.enqueue(() => this.file!.appendFile(`${JSON.stringify([mine, key])}\n`));
    } catch (cause) {
      // Not on disk, so not answered as claimed: the caller may try again.
      if (this.until.get(key) === mine) this.until.delete(key);
      throw new StoreUnavailableError('Could not record a spent token', { cause });
    }
    if (++this.appended > Math.max(COMPACT_AFTER_LINES, 2 * this.until.size)) {
      this.enqueue(() => this.rewrite()).catch(() => {
        // The appends so far are kept; the next claim tries again.
      });
    }
    return true;
  }

  async mark(key: string, ttlMs: number): Promise<void> {
    const until = this.now() + ttlMs;
    this.until.set(key, until);
    try {
      await this.enqueue(() => this.file!.appendFile(`${JSON.stringify([until, key])}\n`));
    } catch (cause) {
      throw new StoreUnavailableError('Could not record a stream ticket', { cause });
    }
  }

  async has(key: string): Promise<boolean> {
    return (this.until.get(key) ?? 0) > this.now();
  }

  async close(): Promise<void> {
    await this.enqueue(async () => {
      await this.file?.close();
      this.file = undefined;
    }).catch(() => {});
  }

  private enqueue<T>(operation: () => Promise<T>): Promise<T> {
    const result = this.queue.then(operation);
    this.queue = result.catch(() => {});
    return result;
  }

  /** Drops expired claims and writes the live ones to a new file that replaces the old one whole. */
  private async rewrite(): Promise<void> {
    const now = this.now();
    const lines: string[] = [];
    for (const [key, until] of this.until) {
      if (until > now) lines.push(`${JSON.stringify([until, key])}\n`);
      else this.until.delete(key);
    }
    // Unique: two stores opening one file at once (tests start servers in parallel) must not share it.
    const next = `${this.path}.${randomUUID()}.tmp`;
    const handle = await open(next, 'w', 0o600);
    try {
      await handle.writeFile(lines.join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(next, this.path);
    const previous = this.file;
    this.file = await open(this.path, 'a', 0o600);
    await previous?.close();
    this.appended = 0;
  }
}

function parseLine(line: string): [number, string] | undefined {
  if (!line) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') return [value[0], value[1]];
  } catch {
    // A line cut short by a crash: its claim was never answered.
  }
  return undefined;
}
