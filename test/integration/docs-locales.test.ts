/**
 * The shipped languages as the docs name them are the files in widget/src/locales (the build serves
 * one per file): adding or removing a language without the docs fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const shipped = readdirSync(join(root, 'widget/src/locales'))
  .filter((f) => /^[a-z]{2}\.ts$/.test(f))
  .map((f) => f.slice(0, 2))
  .sort();
const RTL = new Set(['ar', 'he', 'fa', 'ur', 'yi']);

/** The languages of every `/widget-locales/{xx,yy}.json` in a Markdown file. */
function served(path: string): string[][] {
  const text = readFileSync(join(root, path), 'utf8');
  return [...text.matchAll(/\/widget-locales\/\{([a-z,]+)\}\.json/g)].map((m) => m[1]!.split(','));
}

describe('the shipped languages in the docs', () => {
  it('there is more than English to check', () => {
    expect(shipped.length).toBeGreaterThan(0);
  });

  it.each(['docs/embedding.md', 'widget/README.md'])('%s names /widget-locales/{…}.json with exactly the files of widget/src/locales', (path) => {
    const lists = served(path);
    expect(lists.length, path).toBeGreaterThan(0);
    for (const list of lists) expect(list).toEqual(shipped);
  });

  it("docs/embedding.md's table has English and one row per shipped language, with its direction", () => {
    const text = readFileSync(join(root, 'docs/embedding.md'), 'utf8');
    const section = text.slice(text.indexOf('## Languages and strings'));
    const rows = [...section.matchAll(/^\| `([a-z]{2})` \| [^|]+ \| (left to right|right to left) \|$/gm)].map((m) => [m[1]!, m[2]!]);
    expect(rows.map(([code]) => code)).toEqual(['en', ...shipped]);
    for (const [code, dir] of rows) expect(dir, code).toBe(RTL.has(code!) ? 'right to left' : 'left to right');
  });
});
