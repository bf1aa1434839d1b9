/**
 * docs/frameworks.md's React recipe in Chromium: React (a dev dependency only) bundled with the
 * recipe, on a page whose CSP allows only its own scripts and the BFF's. The script is added once
 * though StrictMode mounts the component twice, the handler hears messages until the component goes,
 * and the page's own button opens the chat with its question in the composer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, composer, openHostPage, panel, sendMessage, startWorld, type World } from './harness.js';

let world: World;
let site: { url: string; close(): Promise<void> };
const out = mkdtempSync(join(tmpdir(), 'parley-react-'));

beforeAll(async () => {
  world = await startWorld();
  const env = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: false,
      logLevel: 'silent',
      root: fileURLToPath(new URL('./react/', import.meta.url)),
      define: { 'process.env.NODE_ENV': '"production"' },
      build: { outDir: out, emptyOutDir: true, minify: false, lib: { entry: fileURLToPath(new URL('./react/recipe.jsx', import.meta.url)), formats: ['iife'], name: 'Recipe', fileName: () => 'app.js' } },
    });
  } finally {
    process.env.NODE_ENV = env;
  }
  const app = readFileSync(join(out, 'app.js'));
  const bff = world.bffOrigin;
  const server: Server = createServer((req, res) => {
    if (req.url === '/app.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(app);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': `default-src 'none'; script-src 'self' ${bff}; style-src ${bff}; connect-src ${bff}; img-src ${bff} data:` });
    res.end(`<!doctype html><html lang="en" data-bff="${bff}"><head><meta charset="utf-8"><title>Shop</title><script src="/app.js" defer></script></head><body><div id="app"></div></body></html>`);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  site = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}, 180_000);
afterAll(async () => {
  await site?.close();
  await world?.close();
  rmSync(out, { recursive: true, force: true });
});

it('the React recipe: one script, a handler until unmount, a prefilled question from the page’s own button', async () => {
  const { page, context, problems } = await openHostPage(world, { url: site.url });
  await page.getByRole('button', { name: 'Ask about this product' }).waitFor();
  await page.waitForFunction(() => typeof (window as unknown as { Parley?: { open?: unknown } }).Parley?.open === 'function');
  expect(await page.locator('script[src$="/widget.js"]').count()).toBe(1);
  await page.getByRole('button', { name: 'Ask about this product' }).click();
  await composer(page).waitFor();
  await expect.poll(() => composer(page).inputValue()).toBe('Is the Ridge tent in stock?');
  await composer(page).press('Enter');
  const heard = () => page.evaluate(() => (window as unknown as { heard: string[] }).heard);
  await expect.poll(heard, { timeout: ANSWER_MS }).toContain('Is the Ridge tent in stock?');
  expect((await heard()).filter((t) => t === 'Is the Ridge tent in stock?')).toHaveLength(1); // one handler, though mounted twice

  await page.getByRole('button', { name: 'Stop listening' }).click();
  const before = (await heard()).length;
  const answers = await panel(page).locator('.msg.bot').count();
  await sendMessage(page, 'And the Ridge boots?');
  await panel(page).getByText('And the Ridge boots?').waitFor({ timeout: ANSWER_MS });
  // The answer has come on the stream after the question's own copy: both events were there to hear.
  await expect.poll(() => panel(page).locator('.msg.bot').count(), { timeout: ANSWER_MS }).toBeGreaterThan(answers);
  expect((await heard()).length).toBe(before);
  expect(problems).toEqual([]);
  await context.close();
});
