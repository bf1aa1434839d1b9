/**
 * Signed-in users in headless Chromium: one user in two browser contexts (two devices) continues
 * one conversation live, and a logout leaves nothing of it readable in that browser.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type SpawnedServer } from '../helpers/server.js';
import { ANSWER_MS, composer, ensureWidgetBuilt, launchBrowser, launcher, panel, SCREENSHOTS, sendMessage, signIdentity } from './harness.js';

const IDENTITY_SECRET = 'identity-secret-for-browser-tests-0123';

let bff: SpawnedServer;
let bffOrigin: string;
let host: Server;
let hostUrl: string;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

/**
 * The host site: a page whose script gives the widget an identity token minted by this "backend"
 * (`/identity`), and a logout button that calls `Parley('reset')`.
 */
function hostSite(bff: string): Server {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script src="/app.js"></script><script src="${bff}/widget.js" data-manual async></script></head>
<body><main><h1>Signed in as Ada</h1><button id="logout" type="button">Log out</button></main></body></html>`;
  const app = `window.Parley = window.Parley || function () { (Parley.q = Parley.q || []).push(arguments); };
Parley('init', { identityToken: async () => (await (await fetch('/identity' + location.search)).json()).identityToken });
addEventListener('DOMContentLoaded', () => document.getElementById('logout').addEventListener('click', () => Parley('reset')));`;
  return createServer(async (req, res) => {
    const csp = `default-src 'none'; script-src 'self' ${bff}; style-src ${bff}; connect-src 'self' ${bff}; img-src ${bff} data:`;
    if (req.url === '/' || req.url?.startsWith('/?')) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(page);
    else if (req.url === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(app);
    else if (req.url?.startsWith('/identity')) {
      // `?user=` signs in someone else than Ada's customer-1001.
      const identityToken = await signIdentity(IDENTITY_SECRET, new URL(req.url, 'http://host').searchParams.get('user') ?? 'customer-1001');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ identityToken }));
    } else res.writeHead(404).end();
  });
}

beforeAll(async () => {
  ensureWidgetBuilt();
  bff = await startServer({ IDENTITY_SECRET, SIM_REPLY_DELAY_MS: '20' });
  bffOrigin = `http://localhost:${bff.port}`;
  host = hostSite(bffOrigin);
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close().catch(() => {});
  await new Promise((resolve) => host?.close(resolve));
  await bff?.stop();
});

/** A new browser context (a device of its own) with the shop page open and the chat opened; `search` picks the user. */
async function device(search = ''): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(hostUrl + search);
  await launcher(page).click();
  await composer(page).waitFor();
  return page;
}
const log = (page: Page) => panel(page).getByRole('log');

describe('one signed-in user on two devices', () => {
  let laptop: Page;
  let phone: Page;

  it('the second device opens the same conversation, and a message sent on one appears live on the other', async () => {
    laptop = await device();
    await sendMessage(laptop, 'Started on the laptop');
    await log(laptop).getByText('Started on the laptop').waitFor();
    await expect.poll(() => laptop.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('parley:')).length), { timeout: ANSWER_MS }).toBeGreaterThan(0);

    phone = await device();
    await log(phone).getByText('Started on the laptop').waitFor({ timeout: ANSWER_MS });
    await sendMessage(laptop, 'Typed on the laptop while the phone watches');
    await log(phone).getByText('Typed on the laptop while the phone watches').waitFor({ timeout: ANSWER_MS });
    await sendMessage(phone, 'Answered from the phone');
    await log(laptop).getByText('Answered from the phone').waitFor({ timeout: ANSWER_MS });
  });

  it('lists the conversation in the Conversations view, which axe finds clean', async () => {
    await panel(laptop).getByRole('button', { name: 'Conversations' }).click();
    await panel(laptop).getByRole('heading', { name: 'Your conversations' }).waitFor();
    const entry = panel(laptop).getByRole('button', { name: /Started on the laptop/ });
    await entry.waitFor();
    expect(await entry.textContent()).toContain('Open');
    await laptop.evaluate(axe.source);
    const violations = await laptop.evaluate(async () => {
      const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    });
    expect(violations).toEqual([]);
    await laptop.screenshot({ path: `${SCREENSHOTS}identity-conversations.png` });
    await panel(laptop).getByRole('button', { name: 'Back to chat' }).click();
  });

  it('a logout on the phone leaves nothing of the conversation readable there', async () => {
    await phone.locator('#logout').click();
    await expect.poll(() => log(phone).textContent()).not.toContain('Started on the laptop');
    const left = await phone.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
    expect(left).not.toMatch(/Started on the laptop|Answered from the phone|refreshToken|"token"/);
    expect(await panel(phone).getByRole('button', { name: 'Conversations' }).count()).toBe(0);
    // The conversation itself lives on, on the laptop.
    expect(await log(laptop).textContent()).toContain('Answered from the phone');
  });
});

describe('a signed-in user with no conversation yet', () => {
  it('sees the Conversations button and an empty list, with no refused request on the way', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 }, reducedMotion: 'reduce' });
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('response', (r) => r.status() >= 400 && refused.push(`${r.status()} ${r.url()}`));
    page.on('console', (m) => m.type() === 'error' && refused.push(m.text()));
    await page.goto(hostUrl + '?user=newcomer-2002');
    await launcher(page).click();
    await composer(page).waitFor();
    const button = panel(page).getByRole('button', { name: 'Conversations' });
    await button.waitFor();
    await button.focus();
    await page.keyboard.press('Enter');
    await panel(page).getByRole('heading', { name: 'Your conversations' }).waitFor();
    await panel(page).getByText('No conversations yet.').waitFor();
    expect(refused).toEqual([]);
    await context.close();
  });
});

describe('one signed-in user, two tabs of one browser', () => {
  it('an open conversation picked from the list becomes the current one in both tabs; an ended one opens read-only', async () => {
    const a = await device('?user=two-tabs-3003');
    await sendMessage(a, 'First topic');
    await log(a).getByText('First topic').waitFor({ timeout: ANSWER_MS });
    const stored = (page: Page) => page.evaluate((key) => JSON.parse(localStorage.getItem(key) || '{}').sessionId as string | undefined, `parley:${bffOrigin}`);
    await expect.poll(async () => (await stored(a)) !== undefined, { timeout: ANSWER_MS }).toBe(true);
    const first = await stored(a);
    await panel(a).getByRole('button', { name: 'Conversations' }).click();
    await panel(a).getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(a, 'Second topic');
    await log(a).getByText('Second topic').waitFor({ timeout: ANSWER_MS });
    await expect.poll(async () => ![undefined, first].includes(await stored(a)), { timeout: ANSWER_MS }).toBe(true);
    const second = await stored(a);

    const b = await a.context().newPage();
    await b.goto(hostUrl + '?user=two-tabs-3003');
    await launcher(b).click();
    await log(b).getByText('Second topic').waitFor({ timeout: ANSWER_MS });

    await panel(a).getByRole('button', { name: 'Conversations' }).click();
    await panel(a).getByRole('button', { name: /First topic/ }).click();
    await composer(a).waitFor();
    // Both tabs follow: the first topic is the current conversation, and either tab writes into it.
    await log(b).getByText('First topic').waitFor({ timeout: ANSWER_MS });
    expect(await log(b).textContent()).not.toContain('Second topic');
    await sendMessage(b, 'Continued in tab B');
    await log(a).getByText('Continued in tab B').waitFor({ timeout: ANSWER_MS });

    // The second topic ends (the operator closes it): it opens read-only, with nothing to write in.
    expect((await fetch(`${bff.url}/sim/operator/conversations/${second}/archive`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBeLessThan(300);
    const token = await a.evaluate((key) => JSON.parse(localStorage.getItem(key) || '{}').token as string, `parley:${bffOrigin}`);
    const stateOf = async () => {
      const list = (await (await fetch(`${bff.url}/api/conversations`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: Array<{ sessionId: string; state: string }> };
      return list.items.find((c) => c.sessionId === second)?.state;
    };
    await expect.poll(stateOf, { timeout: ANSWER_MS }).toBe('archived');
    await panel(a).getByRole('button', { name: 'Conversations' }).click();
    const ended = panel(a).getByRole('button', { name: /Second topic/ });
    // The list on screen is the one shown last until the fresh one arrives.
    await expect.poll(async () => (await ended.textContent()) ?? '', { timeout: ANSWER_MS }).toContain('Ended');
    await ended.click();
    await panel(a).getByText('Past conversation, read-only.').waitFor();
    expect(await composer(a).count()).toBe(0);
    expect(await stored(b)).not.toBe(second);
    await a.context().close();
  });
});
