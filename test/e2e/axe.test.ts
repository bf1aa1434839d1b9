/**
 * axe-core in headless Chromium, at 1280 and 375 px: the widget's main states on a strict-CSP host
 * page (closed launcher, open and empty, with rich answers, handed to a person), then the demo's
 * shop, operator console and webhook inspector. Zero serious or critical violations everywhere.
 * The widget's shadow root is open, and axe looks inside open shadow roots by itself.
 */
import type axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, axeProblems, composer, launcher, openHostPage, operatorAction, panel, sendMessage, startWorld, trackRequests, type OpenedPage, type World } from './harness.js';

let world: World;
let tab: OpenedPage;
const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 375, height: 740 },
];
const log = (page: Page) => panel(page).getByRole('log');

/** axe at each width on the same page (the widget goes full screen below 480 px). */
async function checkAtEachWidth(page: Page, label: string): Promise<void> {
  for (const size of WIDTHS) {
    await page.setViewportSize(size);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(await axeProblems(page), `${label} at ${size.width} px`).toEqual([]);
  }
  await page.setViewportSize(WIDTHS[0]!);
}

beforeAll(async () => {
  world = await startWorld({ SIM_REPLY_DELAY_MS: '5' });
  tab = await openHostPage(world);
});
afterAll(async () => {
  await world?.close();
});

it('the widget: closed launcher, open and empty, with rich answers, handed to a person', async () => {
  const { page } = tab;
  await launcher(page).waitFor();
  await checkAtEachWidth(page, 'closed launcher');

  await launcher(page).click();
  await composer(page).waitFor();
  await panel(page).getByRole('group', { name: 'Suggested questions' }).waitFor({ timeout: ANSWER_MS });
  await checkAtEachWidth(page, 'open, no conversation');
  // axe really looked inside the widget: a node it passed has a path through a shadow root.
  const inShadow = await page.evaluate(async () => {
    const { passes } = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['passes'] });
    return passes.some((rule) => rule.nodes.some((node) => Array.isArray(node.target[0])));
  });
  expect(inShadow).toBe(true);

  const requests = trackRequests(page);
  await sendMessage(page, 'Where is my order?');
  await log(page).getByText(/TrailPost/).first().waitFor({ timeout: ANSWER_MS });
  for (const ask of ['card', 'carousel', 'quick']) {
    const before = await log(page).locator('.msg.bot').count();
    await sendMessage(page, ask);
    await expect.poll(() => log(page).locator('.msg.bot').count(), { timeout: ANSWER_MS }).toBeGreaterThan(before);
  }
  // The last answer whole: its quick replies drawn, and nothing the page asked for still on its way.
  await log(page).locator('.msg.bot .replies').last().waitFor({ timeout: ANSWER_MS });
  await requests.settled();
  await checkAtEachWidth(page, 'with messages, a card, a carousel and quick replies');

  await panel(page).getByRole('button', { name: 'Talk to a person' }).click();
  await panel(page).getByRole('status').filter({ hasText: 'A person from our team will take it from here.' }).waitFor({ timeout: ANSWER_MS });
  await operatorAction(world, page, 'messages', { text: 'Hi, Mara here. Which order is it?', name: 'mara' });
  await log(page).getByText('Hi, Mara here.').waitFor({ timeout: ANSWER_MS });
  await checkAtEachWidth(page, 'handed to a person, who answered');
  expect(tab.problems).toEqual([]);
});

it('the widget with files chosen as chips, and one refused for its size', async () => {
  const phone = await openHostPage(world);
  const { page } = phone;
  await launcher(page).click();
  await panel(page).getByRole('button', { name: 'Attach files' }).waitFor();
  await page.locator('[data-parley] input[type=file]').setInputFiles([
    { name: 'receipt.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4') },
    { name: 'too-big.mov', mimeType: 'video/quicktime', buffer: Buffer.alloc(10 * 1024 * 1024 + 1) },
  ]);
  await panel(page).getByRole('button', { name: 'Remove receipt.pdf' }).waitFor();
  await panel(page).getByRole('alert').filter({ hasText: 'Not added: too-big.mov' }).waitFor();
  await checkAtEachWidth(page, 'files chosen, one refused');
  expect(phone.problems).toEqual([]);
  await phone.context.close();
});

it('the demo shop, signed out and signed in', async () => {
  const page = await tab.context.newPage();
  await page.goto(`${world.bffOrigin}/`);
  await launcher(page).waitFor();
  await checkAtEachWidth(page, 'shop');
  // A signed-in customer writes, so the console shows a verified conversation below.
  await page.getByRole('button', { name: 'Ada', exact: true }).click();
  await page.getByText('Signed in as Ada Lovelace').waitFor();
  await launcher(page).click();
  await sendMessage(page, 'shipping');
  await log(page).getByText(/free over €75/).waitFor({ timeout: ANSWER_MS });
  await checkAtEachWidth(page, 'shop, signed in, chat open');
});

it('the operator console, with a conversation open', async () => {
  const page = await tab.context.newPage();
  await page.goto(`${world.bffOrigin}/console`);
  const rows = page.locator('#conversations button.conversation');
  await expect.poll(() => rows.count(), { timeout: ANSWER_MS }).toBeGreaterThanOrEqual(2);
  await page.locator('.pill.verified').first().waitFor({ timeout: ANSWER_MS });
  await checkAtEachWidth(page, 'console, nothing selected');
  await rows.filter({ has: page.locator('.pill.escalated') }).first().click();
  await page.locator('#op-text:read-write').waitFor({ timeout: ANSWER_MS });
  await page.getByText('Webhook deliveries of this conversation').click();
  await checkAtEachWidth(page, 'console, escalated conversation open');
});

it('the console on a phone: a verified conversation open fits 375 px, and the unread badge reads at 4.5:1', async () => {
  const page = await tab.context.newPage();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(`${world.bffOrigin}/console`);
  const verified = page.locator('#conversations button.conversation').filter({ has: page.locator('.pill.verified') }).first();
  await verified.waitFor({ timeout: ANSWER_MS });
  // White on the badge's own background (axe leaves a one-digit text "incomplete").
  await page.locator('.unread').first().waitFor({ timeout: ANSWER_MS });
  const ratio = await page.locator('.unread').first().evaluate((badge) => {
    const luminance = (css: string) => {
      const [r, g, b] = css.match(/\d+/g)!.slice(0, 3).map((n) => Number(n) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const style = getComputedStyle(badge);
    const [light, dark] = [luminance(style.color), luminance(style.backgroundColor)].sort((a, b) => b - a);
    return (light! + 0.05) / (dark! + 0.05);
  });
  expect(ratio).toBeGreaterThanOrEqual(4.5);
  await verified.click();
  await page.locator('#detail-title .pill.verified').waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), 'sideways overflow').toBeLessThanOrEqual(0);
  await page.close();
});

it('the webhook inspector, after forged and real events', async () => {
  const page = await tab.context.newPage();
  await page.goto(`${world.bffOrigin}/inspector`);
  await page.getByText('live', { exact: true }).waitFor({ timeout: ANSWER_MS });
  await page.getByRole('button', { name: 'Wrong signature' }).click();
  await page.getByRole('status').filter({ hasText: 'BFF answered' }).waitFor({ timeout: ANSWER_MS });
  await page.locator('#sent tr').first().waitFor({ timeout: ANSWER_MS });
  await checkAtEachWidth(page, 'inspector');
});
