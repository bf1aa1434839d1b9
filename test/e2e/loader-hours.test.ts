/**
 * `data-launcher="hours"` with `CLOSED_LAUNCHER=hide` (docs/embedding.md): outside the support hours a
 * visitor with no conversation gets no launcher (the loader asked `/api/config` once), the API still
 * opens the chat, and a visitor who has a conversation keeps the launcher. And what the chat says
 * while the team is away: when it is back, and a form for an address.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composer, idle, launcher, openHostPage, panel, SCREENSHOTS, sendMessage, startWorld, trackRequests, type World } from './harness.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
// One short window two days from now (UTC): closed for the whole test, whatever the hour.
const closedNow = `${DAYS[(new Date().getUTCDay() + 2) % 7]} 09:00-10:00`;

let world: World;
let host: { url: string; close(): Promise<void> };
beforeAll(async () => {
  world = await startWorld({ SUPPORT_HOURS: closedNow, SUPPORT_TIMEZONE: 'UTC', CLOSED_LAUNCHER: 'hide' });
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script src="${world.bffOrigin}/widget.js" data-launcher="hours" async></script></head><body><main><h1>Shop</h1></main></body></html>`);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  host = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => new Promise<void>((ok) => server.close(() => ok())) };
});
afterAll(async () => {
  await host?.close();
  await world?.close();
});

describe('a launcher that follows the support hours', () => {
  it('is not drawn for a first visit while the team is away, and Parley("open") still opens the chat', async () => {
    const { page, context, problems } = await openHostPage(world, { url: 'about:blank' });
    const config = page.waitForResponse((r) => r.url().endsWith('/api/config'));
    await page.goto(host.url, { waitUntil: 'load' });
    expect((await (await config).json()).handoff).toMatchObject({ open: false, launcher: 'hide' });
    await idle(page); // the loader's idle callback has run, and what the answer started with it
    expect(await page.locator('[data-parley-loader], [data-parley]').count(), 'no launcher, no chat').toBe(0);

    await page.evaluate(() => (window as unknown as { Parley(m: string): void }).Parley('open'));
    await expect.poll(() => composer(page).isVisible()).toBe(true);
    // Closed again without a word: the chat's own launcher keeps to the hours too.
    await page.keyboard.press('Escape');
    await expect.poll(() => composer(page).count()).toBe(0);
    await expect.poll(() => page.locator('[data-parley] button.launcher').count()).toBe(0); // once its settings are in
    expect(problems).toEqual([]);
    await context.close();
  });

  it('is drawn for a visitor who already has a conversation, without asking first', async () => {
    const { page, context, problems } = await openHostPage(world, { url: host.url });
    await page.evaluate(() => (window as unknown as { Parley(m: string, t: string): void }).Parley('send', 'Where is my order?'));
    await expect.poll(() => page.evaluate((key) => !!localStorage.getItem(key), `parley:${world.bffOrigin}`), { timeout: 20_000 }).toBe(true);

    const requests = trackRequests(page);
    await page.reload({ waitUntil: 'load' });
    // The chat's own launcher replaces the loader's, and stays once the chat has its settings.
    await page.locator('[data-parley] button.launcher').waitFor();
    await requests.settled();
    expect(await launcher(page).isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('says when the team is back and takes an email address (phone, keyboard only)', async () => {
    const { page, context, problems } = await openHostPage(world, { url: host.url, viewport: { width: 375, height: 740 }, locale: 'en-GB' });
    // The page hears that an address was left, never the address.
    await page.evaluate(() => {
      const w = window as unknown as { Parley(m: string, ...a: unknown[]): void; left: unknown[] };
      w.left = [];
      w.Parley('on', 'contact', (data: unknown) => w.left.push(data));
      w.Parley('open');
    });
    await panel(page).getByText(/^We're away right now\. Back \w+day \d\d:00\.$/).waitFor();
    await sendMessage(page, 'Is my parcel lost?');
    const email = panel(page).getByRole('textbox', { name: 'Leave your email and we will get back to you:' });
    await email.waitFor({ timeout: 20_000 });
    await page.screenshot({ path: `${SCREENSHOTS}people-away.png` });
    await email.focus();
    await page.keyboard.type('ada@example.com');
    await page.keyboard.press('Enter');
    const thanks = panel(page).getByRole('status').filter({ hasText: "Thanks! We'll reply to ada@example.com." });
    await thanks.waitFor({ timeout: 20_000 });
    // Focus went to the thanks, not to <body>.
    expect(await thanks.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { left: unknown[] }).left)).toEqual([{}]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
