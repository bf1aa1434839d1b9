// What scripts/check-dockerfile.mjs needs from a Dockerfile and its .dockerignore, read by
// maintained parsers: dockerfile-ast (the parser behind the Dockerfile language server: line
// continuations, escape directive, flags, exec and shell forms) and @balena/dockerignore
// (Docker's own matching rules, ported from moby). This file only folds their output into stages.
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import ignore from '@balena/dockerignore';
import { DockerfileParser } from 'dockerfile-ast';

/**
 * Splits a Dockerfile into stages. Each stage: `{index, name, image, workdir, copies:[{line, from,
 * sources, dest}], runs, env, expose, user, healthcheck, cmd}`; `cmd` and `healthcheck` are an
 * array (exec form) or a string (shell form).
 */
export function parseDockerfile(text) {
  const stages = [];
  let stage;
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    const line = instruction.getRange().start.line + 1;
    const keyword = instruction.getKeyword();
    // Flags (--from, --interval, …) are not in the arguments or their content.
    const args = instruction.getArguments().map((a) => a.getValue());
    const content = instruction.getArgumentsContent()?.trim() ?? '';
    if (keyword === 'FROM') {
      const image = instruction.getImage();
      const base = stages.find((s) => s.name === image);
      stage = {
        index: stages.length,
        name: instruction.getBuildStage() ?? undefined,
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
    if (!stage) throw new Error(`line ${line}: ${keyword} before FROM`);
    switch (keyword) {
      case 'WORKDIR':
        stage.workdir = posix.resolve(stage.workdir, content);
        break;
      case 'COPY':
      case 'ADD': {
        const paths = content.startsWith('[') ? JSON.parse(content) : args;
        const from = instruction.getFlags().find((f) => f.getName() === 'from')?.getValue() ?? undefined;
        stage.copies.push({ line, from, sources: paths.slice(0, -1), dest: paths.at(-1) });
        break;
      }
      case 'RUN':
        stage.runs.push(content);
        break;
      case 'ENV':
        for (const p of instruction.getProperties()) stage.env[p.getName()] = unquote(p.getValue() ?? '');
        break;
      case 'EXPOSE':
        stage.expose.push(...args.map((p) => p.replace(/\/tcp$/, '')));
        break;
      case 'USER':
        stage.user = content;
        break;
      case 'HEALTHCHECK': {
        const sub = instruction.getSubcommand()?.getValue().toUpperCase();
        if (sub === 'NONE') stage.healthcheck = undefined;
        else stage.healthcheck = execOrShell(content.replace(/^CMD\s+/i, ''));
        break;
      }
      case 'CMD':
        stage.cmd = execOrShell(content);
        break;
    }
  }
  return stages;
}

function execOrShell(text) {
  if (!text.startsWith('[')) return text;
  const args = JSON.parse(text);
  if (args[0] === 'CMD-SHELL') return args.slice(1).join(' ');
  return args[0] === 'CMD' ? args.slice(1) : args;
}

/** dockerfile-ast keeps an ENV value's quotes (`A="b c"` gives `"b c"`); the container sees none. */
function unquote(value) {
  return value.replace(/^(["'])(.*)\1$/, '$2');
}

/** A predicate: true when `.dockerignore` keeps repository path `file` out of the build context. */
export function readIgnore(path) {
  if (!existsSync(path)) return () => false;
  const rules = ignore().add(readFileSync(path, 'utf8'));
  return (file) => rules.ignores(file);
}
