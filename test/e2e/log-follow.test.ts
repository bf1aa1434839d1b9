/**
 * Browser behaviours of the log and the panel: the log follows new
 * messages also when images load after them, and offers "New messages" when the reader scrolled up;
 * focus stays in the panel after "Talk to a person"; the unread count survives a reload and is the
 * same in every tab.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_MS, composer, idle, launcher, openHostPage, operatorAction, panel, SCREENSHOTS, sendMessage, startWorld, storedSessionId, trackRequests, type World } from './harness.js';

let world: World;
const log = (page: Page) => panel(page).getByRole('log');
/** How far the log is from its bottom, in pixels. */
const gap = (page: Page) => log(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
/** Whether `page`'s focus is inside the widget's panel. */
const focusInPanel = (page: Page) =>
  panel(page).evaluate((el) => {
    const active = (el.getRootNode() as ShadowRoot).activeElement;
    return !!active && el.contains(active);
  });

/** Resolves once the widget's images have loaded (or failed) and the page's fonts are in, and the page is idle. */
async function loaded(page: Page): Promise<void> {
  await page.waitForFunction(() => [...(document.querySelector('[data-parley]')?.shadowRoot?.querySelectorAll('img') ?? [])].every((img) => img.complete));
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await idle(page);
}

const sessionId = (page: Page) => storedSessionId(world, page);
const operator = (page: Page, action: string, body?: unknown) => operatorAction(world, page, action, body);

beforeAll(async () => {
  world = await startWorld({ ESCALATION_OPERATOR_EMAIL: 'ops@nimbus-outdoor.example' });
});
afterAll(async () => {
  await world?.close();
});

describe.each([
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 375, height: 700 }],
])('the log on %s', (name, viewport) => {
  it('stays at the bottom through image and card replies; scrolled up, "New messages" takes the reader down', async () => {
    const { page, context, problems } = await openHostPage(world, { viewport });
    await launcher(page).click();
    for (const [text, answer] of [
      ['hello', /Juniper/],
      ['buttons', /./],
      ['quick', /./],
      ['image', /Flatirons loop/],
      ['help', /Here's what I can do/],
    ] as const) {
      const before = await log(page).locator('.msg').count();
      await sendMessage(page, text);
      await expect.poll(() => log(page).locator('.msg').count(), { timeout: ANSWER_MS }).toBeGreaterThan(before + 1);
      await log(page).getByText(answer).last().waitFor({ timeout: ANSWER_MS });
      await loaded(page); // images and fonts in: the log has its final height
      expect(await gap(page), `after "${text}"`).toBeLessThan(4);
    }
    await page.screenshot({ path: `${SCREENSHOTS}log-follow-${name}.png` });

    // The reader scrolls up; a message from another tab and its answer arrive below.
    await log(page).evaluate((el) => (el.scrollTop = 0));
    const newMessages = panel(page).getByRole('button', { name: 'New messages' });
    expect(await newMessages.count()).toBe(0);
    const other = await context.newPage();
    await other.goto(world.host.url);
    await launcher(other).click();
    await sendMessage(other, 'image');
    await newMessages.waitFor({ timeout: ANSWER_MS });
    await other.close();
    expect(await log(page).evaluate((el) => el.scrollTop)).toBeLessThan(50); // the reader's place is kept
    await page.screenshot({ path: `${SCREENSHOTS}log-new-messages-${name}.png` });
    await newMessages.click();
    await expect.poll(() => gap(page)).toBeLessThan(4);
    await expect.poll(() => newMessages.count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('panel', () => {
  it('keeps focus in the panel after "Talk to a person", so Escape still closes it', async () => {
    const { page, context } = await openHostPage(world);
    await launcher(page).click();
    await sendMessage(page, 'How do returns work?');
    await log(page).getByText(/Returns are free/).waitFor({ timeout: ANSWER_MS });
    await panel(page).getByRole('button', { name: 'Talk to a person' }).click();
    await panel(page).getByRole('status').filter({ hasText: 'A person from our team will take it from here.' }).waitFor({ timeout: ANSWER_MS });
    await expect.poll(() => panel(page).getByRole('button', { name: 'Talk to a person' }).count()).toBe(0);
    expect(await focusInPanel(page)).toBe(true);
    expect(await composer(page).evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).count()).toBe(0);
    await context.close();
  });

  it('keeps the unread count across a reload and shows the same count in every tab until the panel is opened', async () => {
    const { page, context } = await openHostPage(world);
    await launcher(page).click();
    await sendMessage(page, 'How do returns work?');
    await log(page).getByText(/Returns are free/).waitFor({ timeout: ANSWER_MS });
    await panel(page).getByRole('button', { name: 'Talk to a person' }).click();
    await log(page).getByText(/Connecting you to a human/).waitFor({ timeout: ANSWER_MS });
    await page.keyboard.press('Escape');
    const other = await context.newPage();
    await other.goto(world.host.url);
    await launcher(other).waitFor();

    const badge = (p: Page) => launcher(p).locator('.unread');
    await operator(page, 'messages', { text: 'Hi, Alex here.', name: 'Alex' });
    await operator(page, 'messages', { text: 'Which order is it?', name: 'Alex' });
    for (const p of [page, other]) await expect.poll(() => badge(p).textContent(), { timeout: ANSWER_MS }).toBe('2');

    await page.reload();
    await launcher(page).waitFor();
    await expect.poll(() => badge(page).textContent(), { timeout: ANSWER_MS }).toBe('2');
    expect(await launcher(page).getAttribute('aria-label')).toMatch(/2/);
    await page.screenshot({ path: `${SCREENSHOTS}unread-after-reload.png` });

    await launcher(other).click();
    await expect.poll(() => badge(page).count(), { timeout: 5000 }).toBe(0);
    const requests = trackRequests(page);
    await page.reload();
    await page.locator('[data-parley] button.launcher').waitFor(); // the chat itself, with the conversation
    await requests.settled(); // and what it asked the BFF has come
    expect(await badge(page).count()).toBe(0);
    await context.close();
  }, 120_000);
});
