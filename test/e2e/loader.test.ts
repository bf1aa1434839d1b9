/**
 * The loader (widget.js) and the chat it fetches: what a page pays before anyone touches the chat,
 * when the chat comes, and that it comes under nonce and Trusted Types CSPs.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composer, gate, idle, launcher, openHostPage, panel, SCREENSHOTS, sendMessage, startWorld, strictCsp, type World } from './harness.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(() => world?.close());

const chatFile = /\/parley-chat\.[\w-]+\.js$/;
const partsFile = /\/parley-parts\.[\w-]+\.js$/;

/** A page of our own with `csp`, a script tag carrying `attrs`, and `head` besides. */
async function customPage(csp: string, attrs: string, head = ''): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${head}
<script src="${world.bffOrigin}/widget.js" ${attrs} async></script></head><body><main><h1>Shop</h1></main></body></html>`);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((ok) => server.close(() => ok())) };
}

describe('the loader', () => {
  it('a first visit that never touches the chat makes no request to the BFF beyond widget.js', async () => {
    const { page, context, problems } = await openHostPage(world, {});
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await page.reload({ waitUntil: 'load' });
    await launcher(page).waitFor();
    await idle(page); // the loader's work after load has run: nothing more is due
    expect(requests.filter((p) => p !== '/')).toEqual(['/widget.js']);
    expect(await launcher(page).getAttribute('aria-label')).toBe('Open chat');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('does no work while the page loads: the launcher is drawn once the page has loaded and the thread is idle', async () => {
    const { page, context, problems } = await openHostPage(world, {});
    await page.addInitScript(() => {
      const w = window as unknown as { drawnBy: Record<string, boolean> };
      const drawn = () => !!document.querySelector('[data-parley-loader]');
      w.drawnBy = {};
      document.addEventListener('DOMContentLoaded', () => (w.drawnBy.domContentLoaded = drawn()));
      addEventListener('load', () => (w.drawnBy.load = drawn()));
    });
    await page.reload({ waitUntil: 'load' });
    await launcher(page).waitFor();
    expect(await page.evaluate(() => (window as unknown as { drawnBy: object }).drawnBy)).toEqual({ domContentLoaded: false, load: false });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a returning visitor gets the chat at idle, found without a synchronous storage read; after a reset the next visit is a first one', async () => {
    const { page, context, problems } = await openHostPage(world, {});
    const key = `parley:${world.bffOrigin}`;
    const marked = () => page.evaluate(async (name) => (await indexedDB.databases()).some((db) => db.name === name), key);
    await launcher(page).click();
    await sendMessage(page, 'hello');
    await expect.poll(marked).toBe(true);
    // Counts the page's localStorage reads made before the chat's script is on the page.
    await page.addInitScript(() => {
      const w = window as unknown as { earlyReads: number };
      const get = Storage.prototype.getItem;
      w.earlyReads = 0;
      Storage.prototype.getItem = function (this: Storage, k: string) {
        if (!document.querySelector('script[src*="parley-chat"]')) w.earlyReads++;
        return get.call(this, k);
      };
    });
    const chat = page.waitForRequest((r) => chatFile.test(r.url()));
    await page.reload({ waitUntil: 'load' });
    await chat; // nobody touched the launcher
    expect(await page.evaluate(() => (window as unknown as { earlyReads: number }).earlyReads)).toBe(0);
    await page.evaluate(() => (window as unknown as { Parley(...a: unknown[]): void }).Parley('reset'));
    await expect.poll(marked).toBe(false);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.reload({ waitUntil: 'load' });
    await launcher(page).waitFor();
    await idle(page); // the loader's work after load has run: nothing more is due
    expect(requests.filter((u) => chatFile.test(u))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the mark follows the conversation across tabs: one tab resets, another starts anew, and the next visit still gets the chat at idle', async () => {
    const { page, context, problems } = await openHostPage(world, {});
    const key = `parley:${world.bffOrigin}`;
    const marked = () => page.evaluate(async (name) => (await indexedDB.databases()).some((db) => db.name === name), key);
    await launcher(page).click();
    await sendMessage(page, 'hello');
    await expect.poll(marked).toBe(true);
    const other = await context.newPage();
    await other.goto(page.url(), { waitUntil: 'load' });
    await launcher(other).click(); // this tab's chat knows the conversation too
    await composer(other).waitFor();
    await page.evaluate(() => (window as unknown as { Parley(...a: unknown[]): void }).Parley('reset'));
    await expect.poll(marked).toBe(false);
    await sendMessage(other, 'a new question');
    await expect.poll(marked).toBe(true);
    const chat = page.waitForRequest((r) => chatFile.test(r.url()));
    await page.reload({ waitUntil: 'load' });
    await chat; // nobody touched the launcher
    expect(problems).toEqual([]);
    await context.close();
  });

  it('fetches the chat when the visitor points at the launcher, so the click opens it at once', async () => {
    const { page, context, problems } = await openHostPage(world, {});
    const chat = page.waitForRequest((r) => chatFile.test(r.url()));
    await launcher(page).hover();
    const request = await chat;
    expect((await request.response())?.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    // Still pointed at, the chat's launcher draws the panel ahead of the click: out of sight and reach.
    const drawn = page.locator('[data-parley] section.panel');
    await expect.poll(() => drawn.getAttribute('inert')).toBe('');
    expect(await drawn.evaluate((el) => getComputedStyle(el).visibility)).toBe('hidden');
    expect(await panel(page).count()).toBe(0);
    await launcher(page).click();
    await expect.poll(() => composer(page).evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    // Closed again, it is hidden, not gone, and focus is on the launcher; Enter opens it into the text box.
    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).count()).toBe(0);
    await expect.poll(() => page.locator('[data-parley] button.launcher').evaluate((b) => b === (b.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => composer(page).evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a press begun on the loader’s launcher opens the chat on release, though the chat’s own launcher took its place in between', async () => {
    const { page, context, problems } = await openHostPage(world, {});
    const ours = page.locator('[data-parley-loader] button.launcher');
    await ours.waitFor();
    const box = (await ours.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2); // pointing at it fetches the chat
    await page.mouse.down();
    // The chat arrives while the button is held and draws its launcher over the loader's.
    await page.locator('[data-parley] button.launcher').waitFor();
    await page.mouse.up();
    await expect.poll(() => composer(page).isVisible(), { timeout: 10_000 }).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keyboard only: tabbing to the launcher fetches the chat, focus moves to its launcher, Enter opens it', async () => {
    const { page, context, problems } = await openHostPage(world, {});
    await page.locator('[data-parley-loader] button.launcher').waitFor();
    await page.locator('[data-parley-loader] button.launcher').focus();
    await expect.poll(() => page.locator('[data-parley-loader]').count()).toBe(0); // the chat's launcher took over
    await expect.poll(() => page.locator('[data-parley] button.launcher').evaluate((b) => b === (b.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => composer(page).evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('handlers registered before the chat fire after it comes, and queued calls run in order', async () => {
    const { page, context } = await openHostPage(world, {});
    await page.addInitScript(() => {
      const w = window as unknown as { seen: string[]; Parley: ((...a: unknown[]) => void) & { q?: unknown[] } };
      w.seen = [];
      w.Parley = function (...args: unknown[]) {
        (w.Parley.q = w.Parley.q || []).push(args);
      } as typeof w.Parley;
      w.Parley('on', 'ready', () => w.seen.push('ready'));
      w.Parley('on', 'open', () => w.seen.push('open'));
    });
    await page.reload();
    await launcher(page).click();
    await panel(page).waitFor();
    await expect.poll(() => page.evaluate(() => (window as unknown as { seen: string[] }).seen)).toEqual(expect.arrayContaining(['ready', 'open']));
    await context.close();
  });

  it('a single-page app before the chat came: the accent of data-accent, destroy() then init() drawn again, <parley-chat> added later, init({launcher: false})', async () => {
    const site = await customPage(strictCsp(world.bffOrigin), 'data-accent="#b91c1c"');
    const { page, context, problems } = await openHostPage(world, { url: site.url });
    const loaderLauncher = page.locator('[data-parley-loader] button.launcher');
    await loaderLauncher.waitFor();
    expect(await loaderLauncher.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(185, 28, 28)');
    type P = { Parley: (...a: unknown[]) => void };
    // The app left its chat page and came back, with nothing of the chat fetched yet.
    await page.evaluate(() => {
      (window as unknown as P).Parley('destroy');
      (window as unknown as P).Parley('init', { title: 'Back again', theme: { accent: '#0f766e' } });
    });
    await expect.poll(() => loaderLauncher.evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(15, 118, 110)');
    await loaderLauncher.click();
    await expect.poll(() => panel(page).getAttribute('aria-label')).toBe('Back again');
    await context.close();

    // An inline chat the app adds after the page loaded brings the chat with it.
    const next = await openHostPage(world, { url: site.url });
    await next.page.locator('[data-parley-loader] button.launcher').waitFor();
    await next.page.evaluate(() => document.querySelector('main')!.append(document.createElement('parley-chat')));
    await next.page.locator('parley-chat').getByRole('textbox', { name: 'Message' }).waitFor();
    await next.context.close();

    // A later init without the launcher takes the drawn one away.
    const third = await openHostPage(world, { url: site.url });
    await third.page.locator('[data-parley-loader] button.launcher').waitFor();
    await third.page.evaluate(() => (window as unknown as P).Parley('init', { launcher: false }));
    await expect.poll(() => third.page.locator('[data-parley-loader] button.launcher').count()).toBe(0);
    expect([...problems, ...next.problems, ...third.problems]).toEqual([]);
    await third.context.close();
    await site.close();
  });

  it('keyboard only, the chat failing to load: focus stays on the launcher, which says so', async () => {
    const { page, context } = await openHostPage(world, {});
    await page.route(chatFile, (route) => route.abort());
    await launcher(page).waitFor(); // drawn once the page is idle
    await page.keyboard.press('Tab'); // to the launcher: the fetch starts, and fails
    await expect.poll(() => launcher(page).getAttribute('aria-label')).toBe('Chat could not load. Try again');
    await page.keyboard.press('Enter'); // tries again, with the frame up and focused; that fails too
    const focused = () => page.evaluate(() => document.querySelector('[data-parley-loader]')?.shadowRoot?.activeElement?.className ?? document.activeElement?.tagName);
    await expect.poll(() => page.locator('[data-parley-loader] .frame').count()).toBe(0);
    expect(await focused()).toBe('launcher failed');
    await context.close();
  });

  it('when the chat cannot load (network, integrity) the launcher says so, and a later try works with nothing lost', async () => {
    const { page, context } = await openHostPage(world, {});
    let refused = 0;
    await page.route(chatFile, (route) => (refused++ === 0 ? route.abort() : route.continue()));
    await launcher(page).click(); // queues 'open', the fetch fails
    await expect.poll(() => launcher(page).getAttribute('aria-label')).toBe('Chat could not load. Try again');
    expect(await launcher(page).getAttribute('lang')).toBe('en'); // the words it says now
    await launcher(page).click(); // tries again; the queued open still happens
    await composer(page).waitFor();
    expect(refused).toBe(2);
    await context.close();
  });

  it("fetches the parts chunk only when a part shows, checks it against the integrity the chat carries, and a failed try can be repeated", async () => {
    const { page, context } = await openHostPage(world, {});
    let tries = 0;
    // The first answer for the chunk has other bytes (a tampered copy): the browser refuses it.
    await page.route(partsFile, (route) => (tries++ === 0 ? route.fulfill({ body: 'export const Csat = 1;', contentType: 'text/javascript', headers: { 'access-control-allow-origin': '*' } }) : route.continue()));
    await launcher(page).click();
    await composer(page).waitFor();
    await sendMessage(page, 'card'); // a card is drawn by the chat itself (carousels come with the parts)
    expect(tries).toBe(0); // opening and chatting need no part of it
    await panel(page).getByRole('button', { name: /^Enlarge image: / }).first().click();
    const retry = panel(page).getByRole('button', { name: 'This part of the chat could not load. Try again' });
    await retry.click();
    await panel(page).getByRole('dialog').waitFor();
    expect(tries).toBe(2);
    await context.close();
  });

  it('shows the panel’s frame at once on a click with no warning, then the chat fills it', async () => {
    const { page, context } = await openHostPage(world, {});
    const network = gate(); // a network so slow that the chat comes only after the frame was looked at
    await page.route(chatFile, async (route) => {
      await network.held;
      await route.continue();
    });
    await page.locator('[data-parley-loader] button.launcher').evaluate((b: HTMLButtonElement) => b.click());
    expect(await page.locator('[data-parley-loader] .frame').isVisible()).toBe(true);
    network.open();
    await composer(page).waitFor();
    await expect.poll(() => page.locator('[data-parley-loader]').count()).toBe(0);
    await context.close();
  });

  it("draws the frame in the page's declared colour scheme, or the one the theme names, so a dark chat does not open on a white flash", async () => {
    const bff = world.bffOrigin;
    const frameColour = async (attrs: string, head: string, scheme: 'light' | 'dark' = 'light', shot?: string) => {
      const host = await customPage(strictCsp(bff), attrs, head);
      const { page, context, problems } = await openHostPage(world, { url: host.url });
      await page.emulateMedia({ colorScheme: scheme });
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route(chatFile, async (route) => {
        await held; // the chat is on its way while the frame shows
        await route.continue();
      });
      await launcher(page).click();
      const frame = page.locator('[data-parley-loader] .frame');
      const colour = await frame.evaluate((el) => getComputedStyle(el).backgroundColor);
      if (shot) await page.screenshot({ path: `${SCREENSHOTS}${shot}` });
      release();
      await composer(page).waitFor();
      expect(problems).toEqual([]);
      await context.close();
      await host.close();
      return colour;
    };
    const white = 'rgb(255, 255, 255)';
    expect(await frameColour('', '')).toBe(white);
    expect(await frameColour('', '', 'dark')).toBe(white); // a page that declares no scheme stays light on a dark OS, as the chat does
    expect(await frameColour('', '<meta name="color-scheme" content="dark">', 'light', 'loader-frame-dark.png')).not.toBe(white);
    expect(await frameColour('', '<meta name="color-scheme" content="light dark">', 'dark')).not.toBe(white);
    expect(await frameColour('data-scheme="dark"', '')).not.toBe(white);
    expect(await frameColour('data-scheme="light"', '<meta name="color-scheme" content="dark">')).toBe(white);
  });

  /** Opens the chat and an image's lightbox (the parts chunk) on a page of our own under `csp`, and finds no CSP violation or console error. */
  async function opensUnder(csp: string, attrs: string): Promise<void> {
    const host = await customPage(csp, attrs);
    const { page, context, problems } = await openHostPage(world, { url: host.url });
    await launcher(page).click();
    await composer(page).waitFor();
    await sendMessage(page, 'carousel');
    const parts = page.waitForResponse(partsFile);
    await panel(page).getByRole('button', { name: /^Enlarge image: / }).first().click();
    await panel(page).getByRole('dialog').waitFor();
    expect((await parts).ok()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
    await host.close();
  }

  it("works under a nonce + 'strict-dynamic' CSP: the chat carries the loader's nonce", async () => {
    const nonce = 'bm9uY2UtZm9yLXRlc3Rz';
    const bff = world.bffOrigin;
    await opensUnder(`default-src 'none'; script-src 'nonce-${nonce}' 'strict-dynamic'; style-src ${bff}; connect-src ${bff}; img-src ${bff} data:`, `nonce="${nonce}"`);
  });

  it("works under require-trusted-types-for 'script' with the policy named parley", async () => {
    const bff = world.bffOrigin;
    await opensUnder(`default-src 'none'; script-src ${bff}; style-src ${bff}; connect-src ${bff}; img-src ${bff} data:; require-trusted-types-for 'script'; trusted-types parley`, '');
  });
});
