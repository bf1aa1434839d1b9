import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STATUS_BY_CODE } from '../../bff/src/errors.js';
import { ERROR_CODES } from '../../shared/errors.js';
import { BADGE_TYPES } from '../../shared/badge-kinds.js';
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

describe('docs/api.md', () => {
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
