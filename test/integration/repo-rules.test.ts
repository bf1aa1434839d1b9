import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', '.git', 'screenshots', 'assets']);

/** Every file below `dir` whose name matches `pattern`, as paths relative to the repository. */
function files(dir: string, pattern: RegExp): string[] {
  const found: string[] = [];
  const walk = (path: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (SKIP.has(entry.name)) continue;
      const full = join(path, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (pattern.test(entry.name)) found.push(relative(root, full));
    }
  };
  walk(join(root, dir));
  return found;
}

const sources = ['bff', 'shared', 'demo', 'widget', 'scripts', 'bench'].flatMap((dir) => files(dir, /\.(ts|tsx|mjs|js)$/));
/** Everything a clone of the repository has that could cite a contract: code, tests, docs, settings. */
const citing = [
  ...['bff', 'shared', 'demo', 'widget', 'scripts', 'bench', 'test', 'docs'].flatMap((dir) => files(dir, /\.(ts|tsx|mjs|js|md|html)$/)),
  'README.md',
  '.env.example',
  'Dockerfile',
];
const read = (path: string) => readFileSync(join(root, path), 'utf8');

describe('repository rules', () => {
  it.each(['isRecord', 'readJson'])('%s is defined exactly once', (name) => {
    const definition = new RegExp(`function ${name}\\b|const ${name}\\s*=`);
    const where = sources.filter((path) => !/\.test\.tsx?$/.test(path) && definition.test(read(path)));
    expect(where).toHaveLength(1);
  });

  it('the server never loads the demo, and its build does not compile it', () => {
    for (const path of files('bff/src', /\.ts$/)) {
      expect(read(path), path).not.toMatch(/from '(\.\.\/)+demo\/|import\(\s*['"`](\.\.\/)+demo\//);
    }
    const build = JSON.parse(read('tsconfig.server.json')) as { include: string[] };
    expect(build.include.filter((glob) => glob.startsWith('demo'))).toEqual([]);
  });

  it('lib/ holds general helpers only: nothing there knows the upstream service\'s message shapes', () => {
    const lib = files('bff/src/lib', /\.ts$/).filter((path) => !path.endsWith('.test.ts'));
    for (const path of lib) expect(read(path), path).not.toMatch(/message\.added|conversation\.state_changed|\bhbo\b/);
  });

  it('the contract is cited as docs/api.md, never as a specification outside the repository', () => {
    const outside: string[] = [];
    for (const path of citing) {
      const text = read(path);
      if (/\bSPEC\b/.test(text)) outside.push(`${path}: cites the contract outside the repository`);
      // A relative path to shared/ must stay inside the repository (imports do; a link from the root to ../shared/ does not).
      for (const [ref] of text.matchAll(/(?:\.\.\/)+shared\/[\w./-]*/g)) {
        if (relative(root, resolve(root, dirname(path), ref)).startsWith('..')) outside.push(`${path}: ${ref}`);
      }
    }
    expect(outside).toEqual([]);
    expect(read('docs/api.md')).toMatch(/^# Parley HTTP API/);
  });

  it('code, tests and docs say what they guard, not which tracker entry or work session asked for it', () => {
    // A tracker's number, an item of it or a work session's ordinal: dead pointers for a reader of the repository.
    // ("Item 0" with a capital is test data; a user's session is the product's own word.)
    const pointer = /\b[Ii]ssues? #?\d+|\bitems? \d+|\b(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\w+teenth|\w+tieth|previous|earlier|last|this|next) (?:round|session)s?\b(?! (?:was|is|starts|ended|token|cookie|expire))/;
    const found = citing.flatMap((path) => read(path).split('\n').flatMap((line, i) => (pointer.test(line) ? [`${path}:${i + 1}: ${line.trim()}`] : [])));
    expect(found).toEqual([]);
  });

  it('tests wait for the state they check: at most ten fixed waits of 100 ms or more, each saying why', () => {
    // An awaited sleep, waitForTimeout, delay or Promise around setTimeout, of a literal under 100 ms or not.
    const wait = /\b(?:sleep|waitForTimeout|delay)\(([^()]*)\)|new Promise\(\(?(\w+)\)? => setTimeout\(\2, ([^()]*)\)\)/g;
    const tests = [...files('test', /\.(ts|tsx)$/), ...['bff', 'shared', 'demo', 'widget'].flatMap((dir) => files(dir, /\.test\.tsx?$/))];
    const waits: Array<{ at: string; said: boolean }> = [];
    for (const path of tests) {
      const lines = read(path).split('\n');
      lines.forEach((line, i) => {
        for (const m of line.matchAll(wait)) {
          const ms = (m[1] ?? m[3] ?? '').replace(/_/g, '').trim();
          if (/^\d+$/.test(ms) && Number(ms) < 100) continue;
          if (/^\s*(?:export )?(?:const|function) /.test(line)) continue; // the helper's own definition
          waits.push({ at: `${path}:${i + 1}: ${line.trim()}`, said: /\/\/ \S/.test(line) || /^\s*\/\/ \S/.test(lines[i - 1] ?? '') });
        }
      });
    }
    expect(waits.filter((w) => !w.said).map((w) => w.at)).toEqual([]);
    expect(waits.length, waits.map((w) => w.at).join('\n')).toBeLessThanOrEqual(10);
  });
});
