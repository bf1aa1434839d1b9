import { SignJWT } from 'jose';
/**
 * Browser-test harness: the real BFF in demo mode, a host page on ANOTHER origin with the
 * strictest CSP the widget promises to work under, and headless Chromium (never downloaded).
 */
import axe from 'axe-core';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startServer, type SpawnedServer } from '../helpers/server.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** How long a test waits for the simulated agent's answer (it answers in milliseconds; CI machines are slow). */
export const ANSWER_MS = 20_000;
export const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

/** Newest modification time of the files below `dir`. */
function newest(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((max, e) => Math.max(max, statSync(join(e.parentPath, e.name)).mtimeMs), 0);
}

/** Builds the widget when `dist/widget/widget.js` (which the BFF serves) is missing or older than its sources. */
export function ensureWidgetBuilt(): void {
  const out = `${ROOT}dist/widget/widget.js`;
  if (existsSync(out) && statSync(out).mtimeMs > Math.max(newest(`${ROOT}widget/src`), newest(`${ROOT}shared`))) return;
  // Vitest runs with NODE_ENV=test, which would give a development (JSX dev runtime) build.
  const env = { ...process.env, NODE_ENV: 'production' };
  execFileSync(process.execPath, [`${ROOT}scripts/build-widget.mjs`], { cwd: ROOT, stdio: 'inherit', env });
  execFileSync(process.execPath, [`${ROOT}scripts/widget-integrity.mjs`], { cwd: ROOT, stdio: 'inherit', env });
}

/** The CSP of the host page: nothing inline, nothing evaluated, everything from the BFF only. */
export function strictCsp(bff: string): string {
  return `default-src 'none'; script-src ${bff}; style-src ${bff}; connect-src ${bff}; img-src ${bff} data:`;
}

/** Serves one HTML page that embeds the widget from `bff`, with the strict CSP header; `head` goes into its head. */
/** An identity token as a site's backend signs one (HS256 with the BFF's IDENTITY_SECRET), for the user `subject`. */
export function signIdentity(secret: string, subject: string, name = 'Ada Lovelace'): Promise<string> {
  return new SignJWT({ name }).setProtectedHeader({ alg: 'HS256' }).setSubject(subject).setAudience('parley-identity').setIssuedAt().setExpirationTime('10m').sign(new TextEncoder().encode(secret));
}

export async function startHostPage(bff: string, body = '', head = ''): Promise<{ url: string; close(): Promise<void> }> {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Host page</title>${head}<script src="${bff}/widget.js" async></script></head>
<body><main><h1>Outdoor gear</h1><p>A page from another origin that embeds the chat.</p>${body}</main></body></html>`;
  const server: Server = createServer((req, res) => {
    if (req.url !== '/' && !req.url?.startsWith('/?')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': strictCsp(bff) });
    res.end(html);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** Headless Chromium from the system, never a downloaded one. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

export interface World {
  bff: SpawnedServer;
  /** The BFF origin the page uses (`localhost`, so that it differs from the host page's `127.0.0.1`). */
  bffOrigin: string;
  host: { url: string; close(): Promise<void> };
  browser: Browser;
  close(): Promise<void>;
}

/** Starts everything a browser test needs; `env` goes to the BFF. */
export async function startWorld(env: Record<string, string> = {}): Promise<World> {
  ensureWidgetBuilt();
  mkdirSync(SCREENSHOTS, { recursive: true });
  // The first file's server compiles the demo through tsx: on a busy machine that took over 30 s.
  const bff = await startServer(env, { timeoutMs: 90_000 });
  // The simulator builds image URLs on http://localhost:PORT, so the page uses that origin too.
  const bffOrigin = `http://localhost:${bff.port}`;
  const host = await startHostPage(bffOrigin);
  const browser = await launchBrowser();
  return {
    bff,
    bffOrigin,
    host,
    browser,
    async close() {
      await browser.close().catch(() => {});
      await host.close();
      await bff.stop();
    },
  };
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  /** CSP violations and console errors seen so far. */
  problems: string[];
}

export interface PageOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** Another host page than the world's. */
  url?: string;
  /** The browser's language, e.g. `de-DE`. */
  locale?: string;
}

/** A fresh browser context with the host page loaded and CSP/console problems collected. */
export async function openHostPage(world: World, options: PageOptions = {}): Promise<OpenedPage> {
  const { viewport = { width: 1280, height: 800 }, colorScheme = 'light', url = world.host.url, locale } = options;
  const context = await world.browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce', ...(locale && { locale }) });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || /content security policy/i.test(msg.text())) problems.push(`console ${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  // Violations are also reported as DOM events; record them from a binding (no inline script needed).
  await page.exposeBinding('__cspViolation', (_src, text: string) => problems.push(`csp: ${text}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __cspViolation(t: string): void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  await page.goto(url);
  return { context, page, problems };
}

/**
 * The launcher inside the widget's shadow root (Playwright's CSS engine pierces open shadow roots):
 * the loader's until the chat has loaded, then the chat's own (added later, so the last one).
 */
export const launcher = (page: Page): Locator => page.locator('[data-parley] button.launcher, [data-parley-loader] button.launcher').last();
export const panel = (page: Page): Locator => page.getByRole('dialog');
export const composer = (page: Page): Locator => panel(page).getByRole('textbox', { name: 'Message' });

/** The conversation id the widget on `page` stored for the world's BFF. */
export function storedSessionId(world: World, page: Page): Promise<string | undefined> {
  return page.evaluate((key) => (JSON.parse(localStorage.getItem(key) || '{}') as { sessionId?: string }).sessionId, `parley:${world.bffOrigin}`);
}

/** Acts as the human operator on the page's conversation through the simulator's console API (demo only). */
export async function operatorAction(world: World, page: Page, action: string, body?: unknown): Promise<void> {
  const res = await fetch(`${world.bff.url}/sim/operator/conversations/${await storedSessionId(world, page)}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`operator ${action}: ${res.status}`);
}

/**
 * Resolves once the page's main thread has been idle twice in a row: work the page queued for its
 * idle time before this call (the loader's, the chat's) has run, and what that work started in turn
 * has been scheduled. The state "nothing more is due", instead of a guessed delay.
 */
export async function idle(page: Page): Promise<void> {
  for (let i = 0; i < 2; i++) await page.evaluate(() => new Promise<void>((ok) => requestIdleCallback(() => ok(), { timeout: 5_000 })));
}

/**
 * Follows the requests `page` makes from now on; `settled()` resolves once the page is idle (see
 * `idle`) and every request it started has finished (the event stream, which stays open, aside).
 */
export function trackRequests(page: Page): { settled(): Promise<void> } {
  const pending = new Set<unknown>();
  const done = (r: unknown) => pending.delete(r);
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith('http') && !url.pathname.startsWith('/api/events')) pending.add(r);
  });
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  return {
    async settled() {
      await idle(page);
      await expect.poll(() => pending.size, { timeout: 10_000 }).toBe(0);
    },
  };
}

/** A gate for `page.route`: requests wait on `held` until `open()` (a network as slow as the test needs). */
export function gate(): { held: Promise<void>; open(): void } {
  let open!: () => void;
  const held = new Promise<void>((ok) => (open = ok));
  return { held, open };
}

/** Types `text` in the composer and presses Enter. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
}

/** Serious and critical axe violations on the page as it is now, with where and why. */
export async function axeProblems(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) at ${JSON.stringify(n.target)}: ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`));
  });
  return violations;
}
