import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STATUS_BY_CODE } from '../../bff/src/errors.js';
import { ERROR_CODES } from '../../shared/errors.js';
import { BADGE_TYPES } from '../../shared/badge-kinds.js';
import { OTHER_ROUTES, ROUTES } from '../../shared/routes.js';
import { STREAM_EVENT_NAMES } from '../../shared/types.js';

// docs/api.md is the project's contract: these checks keep its tables and the code from drifting apart.
const docs = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');

/** The body of the `## title` section, up to the next `## ` heading. */
function section(title: string): string {
  const start = docs.indexOf(`\n## ${title}\n`);
  expect(start, title).toBeGreaterThan(-1);
  const end = docs.indexOf('\n## ', start + 1);
  return docs.slice(start, end === -1 ? undefined : end);
}

/** First two cells of every table row whose first cell is one code span: [name, second cell]. */
function rows(text: string): Array<[string, string]> {
  // A cell may hold an escaped pipe (`"up"\|"down"`).
  return [...text.matchAll(/^\| `([a-z_]+)` \| ((?:[^|\\]|\\.)*) \|/gm)].map((m) => [m[1]!, m[2]!.trim()]);
}

/**
 * The routes the route tables name: every `METHOD /path` code span in the first cell of a row of a
 * table headed `| Method, path |`, the path as the route table writes it (`{name}` → `:name`, no query).
 */
function documentedRoutes(): string[] {
  const found: string[] = [];
  for (const table of docs.matchAll(/^\| Method, path \|.*\n\|[-|]+\|\n((?:\|.*\n?)*)/gm)) {
    for (const row of table[1]!.split('\n')) {
      const first = row.split(/(?<!\\)\|/)[1] ?? '';
      for (const span of first.matchAll(/`(GET|POST|PATCH|PUT|DELETE) ([^`?\s]+)(?:\?[^`]*)?`/g)) found.push(`${span[1]} ${span[2]!.replace(/\{(\w+)\}/g, ':$1')}`);
    }
  }
  return found;
}

describe('docs/api.md', () => {
  it("documents every /api route of the route table (shared/routes.ts) in a route table, and no other", () => {
    const documented = new Set(documentedRoutes().filter((key) => key.split(' ')[1]!.startsWith('/api/')));
    expect([...documented].sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it('documents the routes outside /api (OTHER_ROUTES) in a route table', () => {
    const documented = new Set(documentedRoutes());
    expect(OTHER_ROUTES.filter((key) => !documented.has(key))).toEqual([]);
  });

  it('lists exactly the stream events the code sends', () => {
    const documented = rows(section('Event stream')).map(([name]) => name);
    expect(documented.sort()).toEqual([...STREAM_EVENT_NAMES].sort());
  });

  it('lists exactly the badge kinds of the Badge union', () => {
    const table = section('Widget-facing routes').split('\n#### Badge kinds\n')[1];
    expect(table, '#### Badge kinds').toBeDefined();
    const documented = rows(table!.split('\n#')[0]!).map(([kind]) => kind);
    expect(documented.sort()).toEqual([...BADGE_TYPES].sort());
  });

  it('lists every error code once, with the status the one code table gives it', () => {
    const documented = rows(section('Conventions and errors'));
    expect(documented.map(([code]) => code).sort()).toEqual([...ERROR_CODES].sort());
    for (const [code, status] of documented) expect(status, code).toBe(String(STATUS_BY_CODE[code as keyof typeof STATUS_BY_CODE]));
  });

  it('has the sections the README and the code cite', () => {
    for (const title of ['Configuration', 'Conventions and errors', 'Widget-facing routes', 'Event stream', 'Webhooks', 'Signed-in users (identity)', 'Engagement', 'Operations']) {
      section(title);
    }
  });
});
