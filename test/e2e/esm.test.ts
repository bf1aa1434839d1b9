/**
 * `widget.mjs` for npm users (widget/src/esm.ts): importing it costs the page no chat; the chat module
 * comes with `import()` when a widget is created, and calls made before it arrives run in order.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composer, idle, startWorld, type World } from './harness.js';

const DIST = fileURLToPath(new URL('../../dist/widget/', import.meta.url));

let world: World;
let app: { url: string; close(): Promise<void> };
beforeAll(async () => {
  world = await startWorld();
  // An app that bundled widget.mjs: the built files, served from its own origin, and a page that imports them.
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>App</title>
<script type="module">
import { createParley } from './widget.mjs';
window.seen = [];
document.querySelector('#go').addEventListener('click', () => {
  window.chat = createParley({ bff: '${world.bffOrigin}' });
  // on() returns its own removal, so listeners are added one call each.
  window.chat.on('ready', () => window.seen.push('ready'));
  window.chat.on('open', () => window.seen.push('open'));
  window.chat.open();
});
</script></head><body><main><h1>App</h1><button id="go">Chat with us</button></main></body></html>`;
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    let body: Buffer;
    try {
      body = readFileSync(DIST + path.slice(1).replace(/[^\w.-]/g, ''));
    } catch {
      return void res.writeHead(404).end();
    }
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(body);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  app = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((ok) => server.close(() => ok())) };
});
afterAll(async () => {
  await app?.close();
  await world?.close();
});

describe('widget.mjs', () => {
  it('fetches the chat module only when a widget is created; calls made before it came run in order', async () => {
    const context = await world.browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    await page.goto(app.url, { waitUntil: 'load' });
    await idle(page); // the page's own work after load has run
    expect(scripts).toEqual(['/widget.mjs']);

    await page.getByRole('button', { name: 'Chat with us' }).click();
    await expect.poll(() => composer(page).isVisible()).toBe(true);
    // The chat, then (at its first idle moment) the Markdown renderer's chunk, nothing else.
    await expect.poll(() => scripts.length).toBe(3);
    expect(scripts).toEqual(['/widget.mjs', expect.stringMatching(/^\/parley-chat\.[\w-]+\.js$/), expect.stringMatching(/^\/parley-markdown\.[\w-]+\.js$/)]);
    await expect.poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(['open', 'ready']);
    expect(problems).toEqual([]);
    await context.close();
  });
});
