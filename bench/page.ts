/**
 * `npm run bench:page`: what the embed costs a host page, in headless Chromium with the CPU throttled
 * 4× (BENCH_CPU sets another factor). A plain page is loaded without the embed, with it, and (with BENCH_BEFORE_DIR, a built
 * `dist/widget` of an earlier version) with the earlier widget, alternately, BENCH_PAGE_RUNS times
 * (default 7); medians are printed. Per page: requests to the BFF before any interaction, main-thread
 * script time (CDP ScriptDuration), long tasks; then, on a page with the embed, click to a focused
 * composer after pointing at the launcher first, and with no warning (a keyboard or touch click).
 * Then Lighthouse's performance score, Total Blocking Time and LCP of each page (BENCH_LIGHTHOUSE_RUNS,
 * default 3; 0 skips it).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer } from '../test/helpers/server.js';

const RUNS = Number(process.env.BENCH_PAGE_RUNS || 7);
// BENCH_CPU=1 measures the page's script time without throttling (the first visit's budget is < 5 ms at 1×).
const THROTTLE = Number(process.env.BENCH_CPU || 4);

const NAMES: Record<string, string> = { none: 'without the embed', noop: 'with a script that does nothing (the floor of any embed)', embed: 'with the embed (loader)', before: 'with the earlier widget (one file)' };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/**
 * Serves the plain page (with or without a script tag) and, for the "before" variant, an earlier widget.
 * The page has one inline script of its own, as real pages do: the first script a page runs creates
 * its JavaScript context (about 20 ms at 4× CPU), which a page without any script never pays and
 * which would otherwise be counted against the embed.
 */
async function hostServer(bffOrigin: string, beforeDir?: string) {
  const page = (script: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Shop</title><script>document.documentElement.className = 'js';</script>${script}</head><body><main><h1>Outdoor gear</h1>${'<p>Tents, packs and boots for every trail. '.repeat(40)}</p></main></body></html>`;
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/noop.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end('void 0;');
    if (url.startsWith('/before/') && beforeDir) {
      res.writeHead(200, { 'content-type': 'text/javascript', 'access-control-allow-origin': '*' });
      return void res.end(readFileSync(join(beforeDir, url.slice(8).split('?')[0]!)));
    }
    const variant = new URL(url, 'http://x').searchParams.get('v');
    const script =
      variant === 'embed' ? `<script src="${bffOrigin}/widget.js" async></script>` : variant === 'noop' ? '<script src="/noop.js" async></script>' : variant === 'before' ? `<script src="/before/widget.js" data-bff="${bffOrigin}" async></script>` : '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page(script));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

interface Load {
  requests: number;
  scriptMs: number;
  longTasks: number;
}

/** One cold load of `url` in a fresh context; what it cost before anyone touched the chat. */
async function coldLoad(browser: Browser, url: string, bffOrigin: string): Promise<Load> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  // As text: tsx would wrap a function's inner functions in a helper the page does not have.
  await page.addInitScript(`window.__long = 0; new PerformanceObserver((l) => { window.__long += l.getEntries().length; }).observe({ type: 'longtask', buffered: true });`);
  let requests = 0;
  // widget.js itself is the page's own choice: count what the embed asks the BFF for besides it.
  page.on('request', (r) => void (r.url().startsWith(bffOrigin) && !r.url().endsWith('/widget.js') && requests++));
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(2_500); // idle callbacks, late requests
  const { metrics } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  const scriptMs = (metrics.find((m) => m.name === 'ScriptDuration')?.value ?? 0) * 1000;
  const longTasks = (await page.evaluate('window.__long')) as number;
  await context.close();
  return { requests, scriptMs, longTasks };
}

/** Milliseconds from a click on the launcher to a focused text box in the chat; `warn`: point at it first. */
async function clickToComposer(browser: Browser, url: string, warn: boolean): Promise<{ frameMs: number; composerMs: number }> {
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: THROTTLE });
  await page.goto(url, { waitUntil: 'load' });
  const launcher = page.locator('[data-parley-loader] >> css=.launcher');
  await launcher.waitFor();
  if (warn) {
    const chat = page.waitForResponse((r) => /parley-chat\.[\w-]+\.js/.test(r.url()));
    await launcher.hover();
    await (await chat).finished();
    await page.waitForTimeout(300);
  }
  const result = (await page.evaluate(`(async () => {
    const deepActive = () => { let el = document.activeElement; while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement; return el; };
    const loaderRoot = document.querySelector('[data-parley-loader]')?.shadowRoot;
    const chatRoot = () => document.querySelector('[data-parley]')?.shadowRoot;
    const button = chatRoot()?.querySelector('.launcher') ?? loaderRoot?.querySelector('.launcher');
    const t0 = performance.now();
    button.click();
    const frameMs = loaderRoot?.querySelector('.frame') || chatRoot()?.querySelector('.panel') ? performance.now() - t0 : NaN;
    for (;;) {
      await new Promise(requestAnimationFrame);
      if (deepActive()?.tagName === 'TEXTAREA') return { frameMs, composerMs: performance.now() - t0 };
      if (performance.now() - t0 > 10000) return { frameMs, composerMs: NaN };
    }
  })()`)) as { frameMs: number; composerMs: number };
  await context.close();
  return result;
}

// Lighthouse is run through npx (fetched once into npx's cache), not a dependency: the bench is its only user.
const LIGHTHOUSE = 'lighthouse@12.8.2'; // the last release that runs on Node 20
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);

interface Audit {
  score: number;
  tbt: number;
  lcp: number;
}

/** One Lighthouse mobile run (slow 4G and 4× CPU, simulated or applied) of `url`, performance only. */
async function lighthouse(url: string, method: 'simulate' | 'devtools'): Promise<Audit> {
  const chrome = process.env.CHROME_PATH || '/usr/bin/chromium';
  const { stdout } = await promisify(execFile)(
    'npx',
    ['--yes', LIGHTHOUSE, url, '--only-categories=performance', `--throttling-method=${method}`, '--output=json', '--quiet', '--chrome-flags=--headless=new --no-sandbox --disable-gpu'],
    { env: { ...process.env, CHROME_PATH: chrome }, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 },
  );
  const report = JSON.parse(stdout) as { categories: { performance: { score: number } }; audits: Record<string, { numericValue: number }> };
  return {
    score: Math.round(report.categories.performance.score * 100),
    tbt: report.audits['total-blocking-time']!.numericValue,
    lcp: report.audits['largest-contentful-paint']!.numericValue,
  };
}

async function main() {
  const bff = await startServer({ SIM_REPLY_DELAY_MS: '5' });
  const bffOrigin = bff.url.replace('127.0.0.1', 'localhost');
  const before = process.env.BENCH_BEFORE_DIR;
  const host = await hostServer(bffOrigin, before);
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const variants = ['none', 'noop', 'embed', ...(before ? ['before'] : [])];
    const loads: Record<string, Load[]> = Object.fromEntries(variants.map((v) => [v, []]));
    for (let i = 0; i < RUNS; i++) for (const v of variants) loads[v]!.push(await coldLoad(browser, `${host.url}?v=${v}`, bffOrigin));
    console.log(`\nHost-page cost, headless Chromium, CPU ${THROTTLE}× slower, median of ${RUNS} cold loads each (alternating):`);
    console.log('| page | requests to the BFF before interaction | main-thread script | long tasks |');
    console.log('|---|---|---|---|');
    for (const v of variants) {
      const l = loads[v]!;
      console.log(`| ${NAMES[v]} | ${median(l.map((x) => x.requests))} | ${median(l.map((x) => x.scriptMs)).toFixed(1)} ms | ${median(l.map((x) => x.longTasks))} |`);
    }
    // Lighthouse's default estimates the page under slow 4G from a fast load (Lantern), counting every
    // request that starts before the LCP, an async script's too; `devtools` throttles for real and observes.
    for (const method of LIGHTHOUSE_RUNS > 0 ? (['simulate', 'devtools'] as const) : []) {
      const audits: Record<string, Audit[]> = Object.fromEntries(variants.map((v) => [v, []]));
      for (let i = 0; i < LIGHTHOUSE_RUNS; i++) for (const v of variants) audits[v]!.push(await lighthouse(`${host.url}?v=${v}`, method));
      const how = method === 'simulate' ? 'default: simulated 4× CPU and slow 4G' : 'devtools: 4× CPU and slow 4G applied, observed';
      console.log(`\nLighthouse ${LIGHTHOUSE.split('@')[1]} mobile (${how}), median of ${LIGHTHOUSE_RUNS} (alternating):`);
      console.log('| page | performance score | Total Blocking Time | Largest Contentful Paint |');
      console.log('|---|---|---|---|');
      for (const v of variants) {
        const a = audits[v]!;
        console.log(`| ${NAMES[v]} | ${median(a.map((x) => x.score))} | ${median(a.map((x) => x.tbt)).toFixed(0)} ms | ${median(a.map((x) => x.lcp)).toFixed(0)} ms |`);
      }
    }
    const warned: number[] = [];
    const cold: Array<{ frameMs: number; composerMs: number }> = [];
    for (let i = 0; i < Math.min(RUNS, 5); i++) {
      warned.push((await clickToComposer(browser, `${host.url}?v=embed`, true)).composerMs);
      cold.push(await clickToComposer(browser, `${host.url}?v=embed`, false));
    }
    console.log(`\nOpening the chat (CPU ${THROTTLE}×, median of ${warned.length}):`);
    console.log(`- pointed at the launcher first (the chat preloaded), click to focused composer: ${median(warned).toFixed(0)} ms (goal ≤ 100)`);
    console.log(`- a click with no warning: the panel's frame after ${median(cold.map((c) => c.frameMs)).toFixed(1)} ms, a focused composer after ${median(cold.map((c) => c.composerMs)).toFixed(0)} ms (goal ≤ 150)`);
  } finally {
    await browser.close();
    await host.close();
    await bff.stop();
  }
}

await main();
