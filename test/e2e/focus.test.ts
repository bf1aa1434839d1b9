/**
 * Keyboard focus in the browser, keyboard only: every action that removes the
 * control that had focus leaves it in the widget (the composer or the next sensible control), never on
 * <body>; thumbs only under a turn's answer and the thumbs-down comment box; an ended conversation's
 * quick replies disabled. Stop's focus is in engage.test.ts (model mode).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, composer, launcher, openHostPage, operatorAction, panel, SCREENSHOTS, sendMessage, startWorld, type World } from './harness.js';

let world: World;
const log = (page: Page) => panel(page).getByRole('log');

/** What has focus: the widget's focused control (its label or text) when it is inside the shadow root, else the page's tag. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const inside = document.querySelector('[data-parley]')?.shadowRoot?.activeElement;
    if (inside) return `widget ${inside.tagName.toLowerCase()} ${inside.getAttribute('aria-label') ?? inside.textContent?.trim()}`;
    return `page ${document.activeElement?.tagName.toLowerCase()}`;
  });
}

/** Presses Tab until `name` has focus inside the widget (at most 40 presses). */
async function tabTo(page: Page, name: string) {
  for (let i = 0; i < 40; i++) {
    if ((await focused(page)).endsWith(` ${name}`)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${name}; focus is on ${await focused(page)}`);
}

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

it('a quick reply chosen with the keyboard sends its label and leaves focus in the composer', async () => {
  const { page, context, problems } = await openHostPage(world);
  await launcher(page).focus();
  await page.keyboard.press('Enter');
  await composer(page).waitFor();
  await sendMessage(page, 'quick');
  const reply = panel(page).locator('.replies button').first();
  await reply.waitFor({ timeout: ANSWER_MS });
  const label = (await reply.textContent())!;
  await tabTo(page, label);
  await page.keyboard.press('Enter');
  await expect.poll(() => panel(page).locator('.replies').count(), { timeout: ANSWER_MS }).toBe(0);
  expect(await focused(page)).toBe('widget textarea Message');
  expect(await log(page).locator('.msg.user .bubble').last().textContent()).toBe(label);
  expect(problems).toEqual([]);
  await context.close();
});

it('thumbs only under the answer; thumbs down opens a focused comment box, Enter sends, thanks follow, focus stays', async () => {
  const { page, context, problems } = await openHostPage(world);
  await launcher(page).click();
  await sendMessage(page, 'Where is my order?');
  const rate = panel(page).getByRole('group', { name: 'Rate this answer' });
  await rate.waitFor({ timeout: ANSWER_MS });
  await expect.poll(() => log(page).locator('.msg.bot').count(), { timeout: ANSWER_MS }).toBeGreaterThanOrEqual(2);
  // The lead-in ("Let me check that for you…") has none once the answer after it has come.
  await expect.poll(() => rate.locator('xpath=..').textContent(), { timeout: ANSWER_MS }).toContain('TrailPost');
  expect(await rate.count()).toBe(1);
  await tabTo(page, 'Not helpful');
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page)).toBe('widget textarea What was missing?');
  await page.keyboard.type('The date');
  await page.keyboard.press('Shift+Enter');
  await page.keyboard.type('and the carrier');
  expect(await panel(page).getByRole('textbox', { name: 'What was missing?' }).inputValue()).toBe('The date\nand the carrier');
  const box = (await panel(page).getByRole('textbox', { name: 'What was missing?' }).boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(60);
  await page.screenshot({ path: `${SCREENSHOTS}desktop-feedback-comment.png` });
  await page.keyboard.press('Enter');
  await panel(page).getByText('Thanks, that helps us improve.').waitFor();
  expect(await focused(page)).toBe('widget button Not helpful');
  expect(problems).toEqual([]);
  await context.close();
});

it('ended while typing: focus goes to the ended notice, the log stays at its end, quick replies are disabled; Start a new conversation leaves focus in the composer', async () => {
  const { page, context, problems } = await openHostPage(world);
  await launcher(page).click();
  await sendMessage(page, 'quick');
  const reply = panel(page).locator('.replies button').first();
  await reply.waitFor({ timeout: ANSWER_MS });
  await composer(page).focus();
  await operatorAction(world, page, 'archive', {});
  await expect.poll(() => reply.isDisabled(), { timeout: ANSWER_MS }).toBe(true);
  // The text box that had focus is gone: the ended notice takes it (and is read), not <body>.
  await expect.poll(() => focused(page)).toBe('widget p This conversation has ended.');
  // The notice below made the log shorter: it still shows its newest line.
  await expect.poll(() => log(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
  await page.screenshot({ path: `${SCREENSHOTS}desktop-ended-quick-replies.png` });
  await tabTo(page, 'Start a new conversation');
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page)).toBe('widget textarea Message');
  expect(problems).toEqual([]);
  await context.close();
});

it('ended while the reader is elsewhere on the page: focus stays where they put it', async () => {
  const { page, context, problems } = await openHostPage(world);
  await launcher(page).click();
  await sendMessage(page, 'quick');
  await panel(page).locator('.replies button').first().waitFor({ timeout: ANSWER_MS });
  // The reader leaves the panel for the page (as a click on the page's text would).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  expect(await focused(page)).toBe('page body');
  await operatorAction(world, page, 'archive', {});
  await panel(page).getByText('This conversation has ended.').waitFor({ timeout: ANSWER_MS });
  expect(await focused(page)).toBe('page body');
  expect(problems).toEqual([]);
  await context.close();
});

