// The part of Dockerfile and .dockerignore syntax that scripts/check-dockerfile.mjs needs:
// stages with their COPY, RUN, ENV, WORKDIR, USER, EXPOSE, HEALTHCHECK and CMD.
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';

/**
 * Splits a Dockerfile into stages. Each stage: `{index, name, image, workdir, copies:[{line, from,
 * sources, dest}], runs, env, expose, user, healthcheck, cmd}`; `cmd` and `healthcheck` are an
 * array (exec form) or a string (shell form).
 */
export function parseDockerfile(text) {
  const stages = [];
  let stage;
  for (const { line, instruction, rest } of instructions(text)) {
    if (instruction === 'FROM') {
      const [image, as, name] = rest.split(/\s+/).filter((t) => !t.startsWith('--'));
      const base = stages.find((s) => s.name === image);
      stage = {
        index: stages.length,
        name: /^as$/i.test(as ?? '') ? name : undefined,
        image,
        workdir: base?.workdir ?? '/',
        copies: [],
        runs: [],
        env: { ...base?.env },
        expose: [],
        user: base?.user,
        healthcheck: base?.healthcheck,
        cmd: base?.cmd,
      };
      stages.push(stage);
      continue;
    }
    if (!stage) throw new Error(`line ${line}: ${instruction} before FROM`);
    switch (instruction) {
      case 'WORKDIR':
        stage.workdir = posix.resolve(stage.workdir, rest.trim());
        break;
      case 'COPY':
      case 'ADD': {
        const args = rest.trim().startsWith('[') ? JSON.parse(rest) : rest.trim().split(/\s+/);
        const flags = Object.fromEntries(args.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split('=')));
        const paths = args.filter((a) => !a.startsWith('--'));
        stage.copies.push({ line, from: flags.from, sources: paths.slice(0, -1), dest: paths.at(-1) });
        break;
      }
      case 'RUN':
        stage.runs.push(rest.trim());
        break;
      case 'ENV':
        for (const [key, value] of envPairs(rest)) stage.env[key] = value;
        break;
      case 'EXPOSE':
        stage.expose.push(...rest.trim().split(/\s+/).map((p) => p.replace(/\/tcp$/, '')));
        break;
      case 'USER':
        stage.user = rest.trim();
        break;
      case 'HEALTHCHECK': {
        const command = rest.replace(/^(\s*--\S+)*\s*/, '');
        if (/^NONE$/i.test(command.trim())) stage.healthcheck = undefined;
        else stage.healthcheck = execOrShell(command.replace(/^CMD\s+/i, ''));
        break;
      }
      case 'CMD':
        stage.cmd = execOrShell(rest);
        break;
    }
  }
  return stages;
}

/** Instructions with continuation lines joined and comments dropped. */
function* instructions(text) {
  let pending = '';
  let start = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (/^\s*#/.test(raw) || (pending === '' && raw.trim() === '')) continue;
    if (pending === '') start = i + 1;
    const continued = /\\\s*$/.test(raw);
    pending += (continued ? raw.replace(/\\\s*$/, '') : raw) + ' ';
    if (continued) continue;
    const m = /^\s*(\w+)\s+(.*)$/.exec(pending.trim());
    pending = '';
    if (!m) throw new Error(`line ${start}: cannot parse`);
    yield { line: start, instruction: m[1].toUpperCase(), rest: m[2] };
  }
}

function execOrShell(text) {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[')) return trimmed;
  const args = JSON.parse(trimmed);
  if (args[0] === 'CMD-SHELL') return args.slice(1).join(' ');
  return args[0] === 'CMD' ? args.slice(1) : args;
}

function envPairs(rest) {
  const text = rest.trim();
  if (!/^\w+=/.test(text)) {
    const [key, ...value] = text.split(/\s+/);
    return [[key, value.join(' ')]];
  }
  return [...text.matchAll(/(\w+)=("[^"]*"|'[^']*'|\S*)/g)].map(([, key, value]) => [key, value.replace(/^(["'])(.*)\1$/, '$2')]);
}

/** A predicate: true when `.dockerignore` keeps repository path `file` out of the build context. */
export function readIgnore(path) {
  if (!existsSync(path)) return () => false;
  const rules = readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => ({ negate: l.startsWith('!'), re: globToRegExp(l.replace(/^!/, '').replace(/^\/+|\/+$/g, '')) }));
  return (file) => {
    // A pattern that matches a folder excludes everything in it; the last matching rule wins.
    const parts = file.split('/');
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let excluded = false;
    for (const rule of rules) if (prefixes.some((p) => rule.re.test(p))) excluded = !rule.negate;
    return excluded;
  };
}

function globToRegExp(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
