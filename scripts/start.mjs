// `npm start`: builds what is missing or out of date, then runs the compiled BFF, or the demo
// (the BFF with the built-in simulator, shop and console) when DEMO=true or when nothing is
// configured outside production. In production with nothing configured the BFF refuses to start.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Newest modification time of the source files below `dirs` (0 when none). */
function newest(dirs, pattern) {
  let max = 0;
  const walk = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(path);
      } else if (pattern.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        max = Math.max(max, statSync(path).mtimeMs);
      }
    }
  };
  for (const d of dirs) walk(join(root, d));
  return max;
}

function stale(output, sources) {
  const file = join(root, output);
  return !existsSync(file) || statSync(file).mtimeMs < newest(sources, /\.(tsx?|css)$/);
}

function run(script) {
  const result = spawnSync(npm, ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// The container image is built ahead of time and ships no sources: nothing to rebuild there.
if (existsSync(join(root, 'widget', 'src')) && stale('dist/widget/widget.js', ['widget/src', 'shared'])) run('build:widget');
const sources = existsSync(join(root, 'bff', 'src'));
if (sources && stale('dist/server/bff/src/server.js', ['bff/src', 'shared'])) run('build:server');

// One rule, in config.ts, decides; the server itself never loads the demo.
const { wantsDemo } = await import(new URL('../dist/server/bff/src/config.js', import.meta.url).href);
if (wantsDemo(process.env)) {
  if (sources && stale('dist/server/demo/main.js', ['demo', 'bff/src', 'shared'])) run('build:demo');
  const { runDemo } = await import(new URL('../dist/server/demo/main.js', import.meta.url).href);
  await runDemo(); // prints the pages to open after the log line
} else {
  await import(new URL('../dist/server/bff/src/server.js', import.meta.url).href).then((m) => m.main());
}
