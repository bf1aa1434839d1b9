// Checks the Dockerfile without a Docker engine (none runs on our build machines), then runs
// what its final stage would run: exactly the files it copies, production dependencies only,
// `node scripts/start.mjs`, probed like the HEALTHCHECK does.
// Usage: node scripts/check-dockerfile.mjs [Dockerfile]   (exit 0: all good; 1: problems listed)
// The optional path checks another Dockerfile against this checkout (the tests use it).
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDockerfile, readIgnore } from './dockerfile-parse.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const problems = [];
const problem = (text) => problems.push(text);
const ok = (text) => console.log(`ok       ${text}`);

const stages = parseDockerfile(readFileSync(process.argv[2] ?? join(root, 'Dockerfile'), 'utf8'));
const ignored = readIgnore(join(root, '.dockerignore'));
const final = stages.at(-1);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// A clean checkout holds the tracked files only (others' work in progress is not in it).
const tracked = trackedFiles();

// --- static checks
if (stages.length < 2) problem('expected a multi-stage build (build stage, then a runtime stage)');
for (const stage of stages) if (!/^node:20-bookworm-slim$/.test(stage.image)) problem(`stage ${stage.name ?? stage.index} is FROM ${stage.image}, expected node:20-bookworm-slim`);

for (const stage of stages) {
  for (const copy of stage.copies) {
    if (copy.from !== undefined) {
      const source = stages.find((s) => s.name === copy.from || String(s.index) === copy.from);
      if (!source || source.index >= stage.index) problem(`line ${copy.line}: COPY --from=${copy.from} names no earlier stage`);
      for (const src of copy.sources) {
        const rel = posix.relative(source?.workdir ?? '/', posix.resolve(source?.workdir ?? '/', src));
        if (!/^dist(\/|$)/.test(rel)) problem(`line ${copy.line}: ${src} from stage ${copy.from} is not build output (dist/)`);
      }
    } else {
      for (const src of copy.sources) {
        const files = filesUnder(src);
        if (files.length === 0) problem(`line ${copy.line}: COPY source ${src} is not in a clean checkout`);
        const dropped = files.filter(ignored);
        if (dropped.length) problem(`line ${copy.line}: .dockerignore drops ${dropped[0]} (of COPY ${src}) from the build context`);
      }
    }
  }
}
for (const src of final.copies.filter((c) => c.from === undefined).flatMap((c) => c.sources)) {
  // start.mjs rebuilds when it finds sources, which a production image could not do.
  if (filesUnder(src).some((f) => /^(widget|bff)\/src\//.test(f))) problem(`final stage copies ${src}, which holds widget/src or bff/src`);
}
const startCommand = pkg.scripts?.start;
if (!Array.isArray(final.cmd) || final.cmd.join(' ') !== startCommand) problem(`CMD ${JSON.stringify(final.cmd)} is not the exec form of the start script "${startCommand}"`);
else ok(`CMD ${JSON.stringify(final.cmd)} = npm start`);
if (!final.user || /^(root|0)(:|$)/.test(final.user)) problem(`final stage runs as ${final.user ?? 'root (no USER)'}`);
else ok(`USER ${final.user}`);
if (!final.healthcheck) problem('final stage has no HEALTHCHECK');
if (final.env.NODE_ENV !== 'production') problem('final stage does not set NODE_ENV=production');
if (!final.expose.includes(final.env.PORT)) problem(`EXPOSE ${final.expose.join(' ') || '(none)'} does not match ENV PORT=${final.env.PORT}`);
const install = final.runs.find((r) => /\bnpm ci\b/.test(r));
if (!install || !/--omit=dev\b/.test(install)) problem('final stage does not install with npm ci --omit=dev');
for (const run of final.runs) {
  const unknown = run.split('&&').map((s) => s.trim()).filter((s) => !/^npm (ci|cache clean)\b/.test(s));
  if (unknown.length) problem(`final stage RUN "${unknown[0]}" is not simulated here; extend this script`);
}

if (problems.length === 0) {
  const failure = await simulate().catch((err) => err);
  if (failure) problem(`simulated final stage: ${failure.message}`);
}
for (const text of problems) console.error(`PROBLEM  ${text}`);
console.log(problems.length ? `\n${problems.length} problem(s)` : '\nDockerfile checks passed');
process.exit(problems.length ? 1 : 0);

/** Lays out the final stage in a temp folder, installs production dependencies, runs and probes it. */
async function simulate() {
  if (!['dist/widget/widget.js', 'dist/server/bff/src/server.js', 'dist/server/demo/main.js'].every((f) => existsSync(join(root, f)))) {
    console.log('dist/ is missing: npm run build');
    const built = spawnSync(npm, ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  const image = mkdtempSync(join(tmpdir(), 'parley-image-'));
  let child;
  try {
    const app = join(image, final.workdir.replace(/^\/+/, ''));
    mkdirSync(app, { recursive: true });
    for (const copy of final.copies) {
      const source = copy.from === undefined ? undefined : stages.find((s) => s.name === copy.from || String(s.index) === copy.from);
      for (const src of copy.sources) {
        // Stage output is taken from this checkout's build; context files from the clean checkout.
        const rel = source ? posix.relative(source.workdir, posix.resolve(source.workdir, src)) : posix.normalize(src).replace(/\/$/, '');
        const files = source ? walk(rel) : filesUnder(src).filter((f) => !ignored(f));
        const dir = isDir(rel);
        for (const file of files) {
          const inside = dir ? posix.relative(rel, file) : posix.basename(file);
          const dest = dir || copy.dest.endsWith('/') || copy.sources.length > 1 ? posix.join(copy.dest, inside) : copy.dest;
          const target = join(app, dest);
          mkdirSync(dirname(target), { recursive: true });
          cpSync(join(root, file), target);
        }
      }
    }
    for (const gone of ['widget/src', 'bff/src', 'node_modules']) if (existsSync(join(app, gone))) throw new Error(`${gone} ended up in the image`);
    ok(`final stage laid out in ${image}`);

    // The final stage's own --omit flags, as its RUN line gives them.
    const omit = install.match(/--omit=\S+/g) ?? [];
    const installed = spawnSync(npm, ['ci', ...omit, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8' });
    if (installed.status !== 0) throw new Error(`npm ci ${omit.join(' ')} failed:\n${installed.stdout}${installed.stderr}`);
    for (const dev of Object.keys(pkg.devDependencies ?? {})) if (existsSync(join(app, 'node_modules', dev))) throw new Error(`dev dependency ${dev} was installed`);
    ok('npm ci --omit=dev (production dependencies only)');

    // The container's environment: the image's ENV, any free port. With nothing configured it
    // must refuse (a misconfigured container never serves the demo); DEMO=true runs the demo.
    const bare = { PATH: process.env.PATH, HOME: image, ...final.env, PORT: '0', HOST: '127.0.0.1' };
    const refused = spawnSync(final.cmd[0], final.cmd.slice(1), { cwd: app, env: bare, encoding: 'utf8', timeout: 30_000 });
    const refusal = /^Configuration error: NODE_ENV=production needs UPSTREAM_BASE_URL, or CHAT_MODE=model with GATEWAY_BASE_URL\b/m;
    if (refused.status !== 1 || !refusal.test(refused.stderr)) throw new Error(`with nothing configured: exit ${refused.status}, not the refusal:\n${refused.stdout}${refused.stderr}`);
    ok('nothing configured: refuses to start with one line naming the variables');
    const env = { ...bare, DEMO: 'true' };
    child = spawn(final.cmd[0], final.cmd.slice(1), { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    const port = await listening(child, output);
    ok(`DEMO=true ${final.cmd.join(' ')} listens (demo) on port ${port}`);
    const base = `http://127.0.0.1:${port}`;
    await expectResponse(`${base}/healthz`, 'application/json', (body) => JSON.parse(body).status === 'ok');
    await expectResponse(`${base}/widget.js`, 'text/javascript', (body) => body.length > 1000);
    await expectResponse(`${base}/`, 'text/html', (body) => body.includes('widget.js'));
    const [probeCmd, ...probeArgs] = Array.isArray(final.healthcheck) ? final.healthcheck : ['/bin/sh', '-c', final.healthcheck];
    const probe = spawnSync(probeCmd, probeArgs, { cwd: app, env: { ...env, PORT: String(port) }, timeout: 10_000 });
    if (probe.status !== 0) throw new Error(`HEALTHCHECK command exited ${probe.status}`);
    ok('HEALTHCHECK command exits 0');
    if (output.some((line) => /build:(widget|server|demo)/.test(line))) throw new Error('start.mjs tried to rebuild inside the image');

    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
    child.kill('SIGTERM');
    const [code, signal] = await Promise.race([exited, new Promise((r) => setTimeout(() => r(['timeout']), 10_000))]);
    if (code !== 0) throw new Error(`SIGTERM: exited with ${code ?? signal}\n${output.join('\n')}`);
    ok('SIGTERM: graceful exit 0');
  } finally {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(image, { recursive: true, force: true });
  }
}

function listening(child, output) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not listen within 30 s:\n${output.join('\n')}`)), 30_000);
    let buf = '';
    const onData = (chunk) => {
      buf += chunk;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        output.push(line);
        if (line.includes('"msg":"listening"')) {
          clearTimeout(timer);
          resolve(JSON.parse(line).port);
        }
      }
    };
    for (const stream of [child.stdout, child.stderr]) stream.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
}

async function expectResponse(url, type, check) {
  const res = await fetch(url);
  const body = await res.text();
  if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith(type) || !check(body)) {
    throw new Error(`GET ${url}: ${res.status} ${res.headers.get('content-type')}: ${body.slice(0, 200)}`);
  }
  ok(`GET ${new URL(url).pathname} → 200 ${type}`);
}

/** Tracked files (git), or every file when this is not a git checkout. */
function trackedFiles() {
  const git = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
  if (git.status === 0) return git.stdout.split('\0').filter((f) => f && existsSync(join(root, f)));
  return walk('.').filter((f) => !/^(node_modules|dist|\.git)\//.test(f));
}

/** Clean-checkout files at or below context path `src`. */
function filesUnder(src) {
  const rel = posix.normalize(src).replace(/^\.\/?|\/$/g, '');
  if (rel === '' || rel === '.') return tracked;
  return tracked.filter((f) => f === rel || f.startsWith(`${rel}/`));
}

function isDir(rel) {
  return existsSync(join(root, rel)) && statSync(join(root, rel)).isDirectory();
}

/** Every file below `rel` in this checkout, as repository paths. */
function walk(rel) {
  if (!existsSync(join(root, rel))) return [];
  if (!isDir(rel)) return [rel];
  return readdirSync(join(root, rel), { withFileTypes: true }).flatMap((e) => walk(posix.join(rel, e.name)));
}
