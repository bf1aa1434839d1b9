import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const docs = ['README.md', 'widget/README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The anchors GitHub gives a Markdown file's headings (github-slugger is the slugger GitHub's renderer follows). */
function anchors(path: string): Set<string> {
  const slugger = new GithubSlugger();
  const text = readFileSync(join(root, path), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6} +(.+)$/gm)].map((m) => slugger.slug(m[1]!.replace(/[`*_]/g, ''))));
}

/** Relative link targets of a Markdown file: `[text](target)` and `<img src="target">`, outside code blocks. */
function links(path: string): string[] {
  const text = readFileSync(join(root, path), 'utf8').replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [...text.matchAll(/\]\(([^)\s]+)\)/g), ...text.matchAll(/<img [^>]*src="([^"]+)"/g)].map((m) => m[1]!);
  return targets.filter((t) => !/^[a-z]+:/i.test(t));
}

describe('the README and docs/', () => {
  it('every topic file starts with a title and a summary of at most two lines', () => {
    for (const path of docs.filter((p) => p.startsWith('docs/'))) {
      const [title, blank, ...rest] = readFileSync(join(root, path), 'utf8').split('\n');
      expect(title, path).toMatch(/^# \S/);
      expect(blank, path).toBe('');
      const summary = rest.slice(0, rest.indexOf(''));
      expect(summary.length, path).toBeGreaterThan(0);
      expect(summary.length, path).toBeLessThanOrEqual(3);
    }
  });

  it('the README stays a front door: at most 150 lines, and it links every topic in docs/', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
    for (const path of docs.filter((p) => p.startsWith('docs/'))) expect(readme, path).toContain(`](${path})`);
  });

  it.each(docs)('every relative link and anchor in %s resolves', (path) => {
    const broken: string[] = [];
    for (const target of links(path)) {
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const resolved = file ? relative(root, join(root, dirname(path), decodeURI(file))) : path;
      if (!existsSync(join(root, resolved))) broken.push(`${target}: no file ${resolved}`);
      else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${resolved}`);
    }
    expect(broken).toEqual([]);
  });
});
