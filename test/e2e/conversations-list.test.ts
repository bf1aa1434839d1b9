/**
 * A signed-in visitor coming back, in headless Chromium (docs/api.md "Signed-in users"): "Welcome
 * back" by name above their conversation, and the Conversations view with each conversation's last
 * message on one line, who wrote it (the bot, the operator by name, or "You") and a relative date,
 * at 1280 px and at 375 px with touch, in English, German and Arabic; axe finds nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type SpawnedServer } from '../helpers/server.js';
import { ANSWER_MS, axeProblems, composer, ensureWidgetBuilt, launchBrowser, launcher, panel, SCREENSHOTS, sendMessage } from './harness.js';

const IDENTITY_SECRET = 'identity-secret-for-browser-tests-0123';
const SHOTS = process.env.VISITOR_SHOTS ?? SCREENSHOTS;
let bff: SpawnedServer;
let bffOrigin: string;
let host: Server;
let hostUrl: string;
let browser: Awaited<ReturnType<typeof launchBrowser>>;

/** The shop: its script gives the widget an identity token of Ada's minted by its "backend", and `?lang=` as the widget's language. */
function hostSite(bff: string): Server {
  const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Shop</title>
<script src="/app.js"></script><script src="${bff}/widget.js" data-manual async></script></head>
<body><main><h1>Signed in as Ada</h1></main></body></html>`;
  const app = `window.Parley = window.Parley || function () { (Parley.q = Parley.q || []).push(arguments); };
const lang = new URLSearchParams(location.search).get('lang');
Parley('init', { identityToken: async () => (await (await fetch('/identity')).json()).identityToken, ...(lang && { locale: lang }) });`;
  return createServer(async (req, res) => {
    const csp = `default-src 'none'; script-src 'self' ${bff}; style-src ${bff}; connect-src 'self' ${bff}; img-src ${bff} data:`;
    if (req.url === '/' || req.url?.startsWith('/?')) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp }).end(page);
    else if (req.url === '/app.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(app);
    else if (req.url === '/identity') {
      const identityToken = await new SignJWT({ name: 'Ada Lovelace' })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(`list-${process.pid}`)
        .setAudience('parley-identity')
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode(IDENTITY_SECRET));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ identityToken }));
    } else res.writeHead(404).end();
  });
}

beforeAll(async () => {
  ensureWidgetBuilt();
  bff = await startServer({ IDENTITY_SECRET, SIM_REPLY_DELAY_MS: '20' }, { timeoutMs: 90_000 });
  bffOrigin = `http://localhost:${bff.port}`;
  host = hostSite(bffOrigin);
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close().catch(() => {});
  await new Promise((resolve) => host?.close(resolve));
  await bff?.stop();
});

/** A device of its own with the shop open and the chat opened; a phone (touch) below 500 px. */
async function device(viewport = { width: 1280, height: 800 }, lang = ''): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce', ...(viewport.width < 500 && { hasTouch: true, isMobile: true }) });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto(hostUrl + (lang && `?lang=${lang}`));
  if (viewport.width < 500) await launcher(page).tap();
  else await launcher(page).click();
  await panel(page).getByRole('textbox').waitFor({ timeout: ANSWER_MS }); // the text box, in any language
  return { context, page, problems };
}
const log = (page: Page) => panel(page).getByRole('log');
const sessionId = (page: Page) => page.evaluate((key) => JSON.parse(localStorage.getItem(key) || '{}').sessionId as string, `parley:${bffOrigin}`);
async function operator(page: Page, action: string, body: unknown) {
  const res = await fetch(`${bff.url}/sim/operator/conversations/${await sessionId(page)}/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(res.status).toBeLessThan(300);
}
async function newConversation(page: Page) {
  await panel(page).getByRole('button', { name: 'Conversations' }).click();
  await panel(page).getByRole('button', { name: 'New conversation' }).click();
  await composer(page).waitFor();
}
/** The rows of the Conversations view: the last line and the date of each. */
const rows = (page: Page) =>
  panel(page)
    .locator('.conversations li button')
    .evaluateAll((buttons) => buttons.map((b) => [b.querySelector('.convo-last')?.textContent ?? null, b.querySelector('time')?.textContent ?? null]));

it('three conversations answered by the bot, by the visitor last, and by an operator', async () => {
  const { context, page } = await device();
  await sendMessage(page, 'Where is my order?');
  await log(page).locator('.msg.bot').nth(1).waitFor({ timeout: ANSWER_MS }); // the greeting, then the answer

  await newConversation(page);
  await sendMessage(page, 'Can you gift wrap it?');
  await log(page).locator('.msg.bot').nth(1).waitFor({ timeout: ANSWER_MS });
  await operator(page, 'escalate', { name: 'mara' });
  await operator(page, 'messages', { name: 'mara', text: 'Yes, **we can** wrap it.' });
  await log(page).getByText('we can').waitFor({ timeout: ANSWER_MS });
  await sendMessage(page, 'Lovely, thank you!');
  await log(page).getByText('Lovely, thank you!').waitFor();

  await newConversation(page);
  await sendMessage(page, 'Do you repair tent poles?');
  await log(page).locator('.msg.bot').nth(1).waitFor({ timeout: ANSWER_MS });
  await operator(page, 'escalate', { name: 'theo' });
  await operator(page, 'messages', { name: 'theo', text: 'We do: send it to our workshop in Bergen and we will mend it within a week, free of charge for members.' });
  await log(page).getByText(/send it to our workshop/).waitFor({ timeout: ANSWER_MS });
  await context.close();
}, 120_000);

it.each([
  ['1280', { width: 1280, height: 800 }],
  ['375', { width: 375, height: 740 }],
])('at %s px: welcomed back by name, then the list shows who answered each, the last line and when; axe clean', async (size, viewport) => {
  const { context, page, problems } = await device(viewport);
  const welcome = panel(page).getByRole('status').filter({ hasText: 'Welcome back, Ada Lovelace!' });
  await welcome.waitFor({ timeout: ANSWER_MS });
  await log(page).getByText(/send it to our workshop/).waitFor({ timeout: ANSWER_MS });
  expect(await axeProblems(page), `welcome at ${size} px`).toEqual([]);
  await page.screenshot({ path: `${SHOTS}welcome-back-${size}.png` });

  const list = panel(page).getByRole('button', { name: 'Conversations' });
  if (viewport.width < 500) await list.tap();
  else await list.click();
  await panel(page).getByRole('heading', { name: 'Your conversations' }).waitFor();
  await expect.poll(() => rows(page), { timeout: ANSWER_MS }).toHaveLength(3);
  const shown = await rows(page);
  expect(shown.map(([line]) => line)).toEqual([
    'Theo Adeyemi: We do: send it to our workshop in Bergen and we will mend it within a week, free of charge for members.',
    'You: Lovely, thank you!',
    expect.stringMatching(/^Juniper: \S/),
  ]);
  for (const [, when] of shown) expect(when).toMatch(/^(now|\d+ minutes? ago)$/);
  // One line each: the long one is cut with an ellipsis, not wrapped.
  const line = panel(page).locator('.convo-last').first();
  expect(await line.evaluate((el) => [getComputedStyle(el).whiteSpace, getComputedStyle(el).textOverflow, el.scrollWidth > el.clientWidth])).toEqual(['nowrap', 'ellipsis', true]);
  expect(await axeProblems(page), `list at ${size} px`).toEqual([]);
  await page.screenshot({ path: `${SHOTS}conversations-list-${size}.png` });
  expect(problems).toEqual([]);
  await context.close();
}, 90_000);

it.each([
  ['de', 'Willkommen zurück, Ada Lovelace!', 'Unterhaltungen', 'Ihre Unterhaltungen', /^Sie: Lovely/, /^(jetzt|vor \d+ Minuten?)$/],
  ['ar', 'مرحبًا بعودتك يا Ada Lovelace!', 'المحادثات', 'محادثاتك', /^أنت: Lovely/, /\S/],
])('in %s: the welcome and the list speak the language', async (lang, welcomeText, listName, heading, you, when) => {
  const { context, page, problems } = await device({ width: 375, height: 740 }, lang);
  await panel(page).getByRole('status').filter({ hasText: welcomeText }).waitFor({ timeout: ANSWER_MS });
  await panel(page).getByRole('button', { name: listName }).tap();
  await panel(page).getByRole('heading', { name: heading }).waitFor();
  await expect.poll(() => rows(page), { timeout: ANSWER_MS }).toHaveLength(3);
  const shown = await rows(page);
  expect(shown[1]![0]).toMatch(you);
  expect(shown[0]![1]).toMatch(when);
  expect(await axeProblems(page), `list in ${lang}`).toEqual([]);
  await page.screenshot({ path: `${SHOTS}conversations-list-${lang}-375.png` });
  expect(problems).toEqual([]);
  await context.close();
}, 90_000);
