/**
 * The demo's own pages in the browser: the webhook inspector and the operator
 * console on a phone, the console's list on a desktop, the shop's header following a sign-out in
 * another tab, and the shop's copy in model mode, where no person can join the chat.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type SpawnedServer } from '../helpers/server.js';
import { ANSWER_MS, launcher, openHostPage, operatorAction, panel, SCREENSHOTS, sendMessage, startWorld, type World } from './harness.js';

let world: World;
const PHONE = { width: 375, height: 740 };

beforeAll(async () => {
  world = await startWorld({ SIM_REPLY_DELAY_MS: '5' });
});
afterAll(async () => {
  await world?.close();
});

/** How far the page scrolls sideways (0 when everything fits the viewport's width). */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

it('the webhook inspector fits a 375 px phone: no sideways page, its tables scroll inside their panels', async () => {
  const context = await world.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${world.bffOrigin}/inspector`);
  await page.getByText('live', { exact: true }).waitFor({ timeout: ANSWER_MS });
  await page.getByRole('button', { name: 'Wrong signature' }).click();
  await page.getByRole('status').filter({ hasText: 'BFF answered 401.' }).waitFor({ timeout: ANSWER_MS });
  await page.locator('#received tr').first().waitFor();
  // An unsigned forgery is named as such, not as a wrong signature.
  await page.getByRole('button', { name: 'Unsigned webhook' }).click();
  await expect.poll(() => page.locator('#received tr').count(), { timeout: ANSWER_MS }).toBe(2);
  expect(await page.locator('#received tr .pill').allTextContents()).toEqual(['rejected: unsigned (no signature)', 'rejected: bad signature']);
  expect(await sideways(page)).toBe(0);
  // The table is wider than the phone: its own box scrolls, so every column can still be read,
  // and it shows that it does (touch scrollbars are invisible): a line under it and a shaded edge.
  const box = page.locator('#received').locator('xpath=ancestor::div[contains(@class, "scroll")]');
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflowX === 'auto')).toBe(true);
  const hint = box.locator('xpath=following-sibling::p[contains(@class, "scroll-hint")]');
  await expect.poll(() => hint.isVisible()).toBe(true);
  expect(await box.evaluate((el) => el.classList.contains('more-right') && getComputedStyle(el).boxShadow !== 'none')).toBe(true);
  await box.locator('xpath=..').screenshot({ path: `${SCREENSHOTS}phone-inspector-scroll.png` });
  // Scrolled to its end, the shade moves to the side that has more.
  await box.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await expect.poll(() => box.evaluate((el) => [el.classList.contains('more-left'), el.classList.contains('more-right')])).toEqual([true, false]);
  for (const name of ['Unsigned webhook', 'Wrong signature', 'Signed, but 10 min old', 'Replay the last real event']) {
    const button = await page.getByRole('button', { name }).boundingBox();
    expect(button!.x + button!.width).toBeLessThanOrEqual(PHONE.width);
  }
  await page.screenshot({ path: `${SCREENSHOTS}phone-inspector.png`, fullPage: true });
  await context.close();
});

it("the console's status line after a reply does not cover the reply box on a phone", async () => {
  // A visitor asks, and the conversation is handed to a person.
  const shop = await openHostPage(world);
  await launcher(shop.page).click();
  await sendMessage(shop.page, 'Where is my order?');
  await panel(shop.page).getByText(/TrailPost/).first().waitFor({ timeout: ANSWER_MS });

  const context = await world.browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${world.bffOrigin}/console`);
  const row = page.locator('#conversations button.conversation').first();
  // The list shows the agent's Markdown answer ("Order `NO-48213` … with **TrailPost** …") as text.
  await expect.poll(() => row.locator('.preview').textContent(), { timeout: ANSWER_MS }).toMatch(/^Juniper \(AI\): Order NO-48213 left our warehouse yesterday with TrailPost and/);
  await operatorAction(world, shop.page, 'escalate');
  await row.click();
  const text = page.locator('#op-text');
  await expect.poll(() => text.isEditable(), { timeout: ANSWER_MS }).toBe(true);
  await text.fill('Hi, Mara here.');
  const send = page.getByRole('button', { name: 'Send', exact: true });
  await send.click();
  await page.getByRole('status').filter({ hasText: 'Reply sent' }).waitFor({ timeout: ANSWER_MS });
  // The thread shows the agent's Markdown as formatting: bold, code, a link that opens elsewhere.
  const thread = page.locator('#thread');
  const link = thread.getByRole('link', { name: 'tracking page' });
  expect(await link.getAttribute('href')).toBe('https://nimbus-outdoor.example/track/NO-48213');
  expect(await thread.locator('.msg.bot strong').first().textContent()).toBe('TrailPost');
  expect(await thread.textContent()).not.toMatch(/\*\*|\]\(|`/);
  // Formatting only: markup in a message stays text, and only an http(s) address becomes a link.
  await operatorAction(world, shop.page, 'messages', { text: 'See [the form](javascript:alert(1)) <img src=x onerror="window.pwned=1">', name: 'mara' });
  await thread.getByText('See the form').waitFor({ timeout: ANSWER_MS });
  expect(await thread.getByRole('link', { name: 'the form' }).count()).toBe(0);
  expect(await thread.locator('img').count()).toBe(0);
  expect(await thread.textContent()).toContain('<img src=x onerror="window.pwned=1">');
  // The operator goes on typing with the reply box at the bottom of the screen: nothing lies over it.
  await send.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  for (const control of [text, send]) {
    const b = (await control.boundingBox())!;
    const covered = await page.evaluate(([x, y]) => {
      const top = document.elementFromPoint(x!, y!);
      return top && !top.closest('#reply') ? `${top.tagName}#${top.id}.${top.className}` : null;
    }, [b.x + b.width / 2, b.y + b.height / 2]);
    expect(covered).toBeNull();
  }
  expect(await sideways(page)).toBe(0);
  await page.screenshot({ path: `${SCREENSHOTS}phone-console.png`, fullPage: true });
  await context.close();
  await shop.context.close();
});

it("the console's list on a desktop: a long preview and the state pill stay inside their row", async () => {
  const shop = await openHostPage(world);
  await launcher(shop.page).click();
  await sendMessage(shop.page, 'Where is my order?');
  await panel(shop.page).getByText(/TrailPost/).first().waitFor({ timeout: ANSWER_MS });
  await operatorAction(world, shop.page, 'escalate');
  await operatorAction(world, shop.page, 'messages', { text: "Hi, I'm Mara from the Nimbus team. Happy to help: which size are you after?", name: 'mara' });

  const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${world.bffOrigin}/console`);
  const row = page.locator('#conversations button.conversation', { hasText: 'escalated' }).first();
  await expect.poll(() => row.locator('.preview').textContent(), { timeout: ANSWER_MS }).toMatch(/^Operator: Hi, I'm Mara/);
  // Every line of the row (title and pill, preview, id and time) ends inside the row's border.
  const overflow = await row.evaluate((button) => {
    const right = button.getBoundingClientRect().right;
    return [...button.querySelectorAll('*')].map((el) => Math.round(el.getBoundingClientRect().right - right)).filter((d) => d > 0);
  });
  expect(overflow).toEqual([]);
  await context.close();
  await shop.context.close();
});

it("a tab's shop header follows a sign-in and a sign-out in another tab", async () => {
  const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const [one, two] = [await context.newPage(), await context.newPage()];
  for (const page of [one, two]) await page.goto(`${world.bffOrigin}/`);
  const account = (page: Page) => page.locator('#account');
  // From the keyboard: the pressed button hides, and focus goes to its counterpart, not to <body>.
  await one.getByRole('button', { name: 'Ada', exact: true }).focus();
  await one.keyboard.press('Enter');
  await account(one).getByText('Signed in as Ada Lovelace').waitFor();
  expect(await one.evaluate('document.activeElement.id')).toBe('sign-out');
  await account(two).getByText('Signed in as Ada Lovelace').waitFor({ timeout: 5000 });
  await one.keyboard.press('Enter');
  expect(await one.evaluate("document.activeElement.getAttribute('data-sign-in')")).toBe('ada');
  await expect.poll(() => account(two).getByRole('button', { name: 'Log out' }).isVisible(), { timeout: 5000 }).toBe(false);
  expect(await account(two).getByRole('button', { name: 'Ada', exact: true }).isVisible()).toBe(true);
  await context.close();
});

it('the shop in model mode promises no person: the chat is a model with no hand-off', async () => {
  const visibleText = async (origin: string) => {
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${origin}/`);
    await page.locator('details').evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    const text = await page.locator('body').innerText(); // the widget's shadow root is not part of it
    await context.close();
    return text;
  };
  // Agent mode: the same page offers a person, so the words checked below are the right ones.
  expect(await visibleText(world.bffOrigin)).toMatch(/a human is one tap away[\s\S]*Can I talk to a person\?/);
  let model: SpawnedServer | undefined;
  try {
    model = await startServer({ CHAT_MODE: 'model' }, { timeoutMs: 90_000 });
    const text = await visibleText(`http://localhost:${model.port}`);
    expect(text).toContain('Juniper, our assistant, answers in seconds.');
    expect(text).not.toMatch(/\b(human|person|expert)s?\b/i);
  } finally {
    await model?.stop();
  }
});

it("the shop's header on a 375 px phone: nothing lies over the brand, and it takes two rows, not three", async () => {
  const shop = await openHostPage(world, { url: `${world.bffOrigin}/`, viewport: PHONE });
  const header = shop.page.locator('header.top');
  await header.waitFor();
  const layout = await header.evaluate((top) => {
    // Every point along the middle of each line of the brand's words belongs to the brand itself.
    const words = document.createRange();
    words.selectNodeContents(top.querySelector('.brand')!);
    const covered = [...words.getClientRects()].filter((r) => r.width > 0).flatMap((r) => [0.05, 0.3, 0.5, 0.7, 0.95]
      .map((f) => document.elementFromPoint(r.left + r.width * f, r.top + r.height / 2))
      .filter((hit) => !hit?.closest('.brand')).map((hit) => `${hit?.tagName}.${hit?.className}`));
    // The rows the lines of text of the header's visible parts take.
    const parts = [...top.querySelectorAll('.brand, nav > :not([hidden]), .account > :not([hidden])')].filter((el) => el.getClientRects().length > 0);
    const lines = parts.flatMap((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return [...range.getClientRects()].filter((r) => r.width > 0);
    }).sort((a, b) => a.top - b.top);
    // A line whose middle lies below the row so far starts a new row.
    let rows = 0;
    let bottom = -Infinity;
    for (const line of lines) {
      if (line.top + line.height / 2 > bottom) rows++;
      bottom = Math.max(bottom, line.bottom);
    }
    return { covered, rows, sideways: document.documentElement.scrollWidth - window.innerWidth };
  });
  expect(layout.covered).toEqual([]);
  expect(layout.rows).toBeLessThanOrEqual(2);
  expect(layout.sideways).toBe(0);
  await shop.page.screenshot({ path: `${SCREENSHOTS}phone-shop-header.png` });
  await shop.context.close();
});
