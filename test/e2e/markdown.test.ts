/**
 * Answers' Markdown in the browser, on a 375 px phone: the demo agent's "markdown"
 * answer (heading, table, nested list, quote, code) with its table scrolling inside the bubble, not
 * the page; the code block's Copy button from the keyboard; axe finds nothing serious or critical
 * there or at 1280 px.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, axeProblems, launcher, openHostPage, panel, SCREENSHOTS, sendMessage, startWorld, type World } from './harness.js';

let world: World;
const PHONE = { width: 375, height: 740 };

/** The widget's focused control (its text), or the page's tag when focus is outside it. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const inside = document.querySelector('[data-parley]')?.shadowRoot?.activeElement;
    return inside ? `${inside.tagName.toLowerCase()} ${inside.getAttribute('aria-label') ?? inside.textContent?.trim()}` : `page ${document.activeElement?.tagName}`;
  });

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

it('a Markdown answer on a phone: its table scrolls in the bubble, Copy works from the keyboard, axe is clean', async () => {
  const { page, context, problems } = await openHostPage(world, { viewport: PHONE });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.host.url });
  await launcher(page).click();
  await sendMessage(page, 'Show me some markdown');
  const region = panel(page).getByRole('group', { name: 'Table' });
  await region.waitFor({ timeout: ANSWER_MS });
  const answer = panel(page).locator('.msg.bot .bubble').last();
  // The answer's topmost heading (the simulator writes "##") is an h3 under the panel's h2.
  for (const selector of ['h3', 'ol li ul li', 'blockquote', 'pre code', 'del']) expect(await answer.locator(selector).count(), selector).toBeGreaterThan(0);

  // Wider than the bubble, so it scrolls inside it; the bubble and the page stay within the phone.
  const sizes = await region.evaluate((el) => {
    const bubble = el.closest('.bubble')!.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return { scroll: el.scrollWidth, client: el.clientWidth, inside: box.left >= bubble.left && box.right <= bubble.right + 0.5, bubbleRight: bubble.right, page: document.documentElement.scrollWidth };
  });
  expect(sizes.scroll).toBeGreaterThan(sizes.client);
  expect(sizes.inside).toBe(true);
  expect(sizes.bubbleRight).toBeLessThanOrEqual(PHONE.width);
  expect(sizes.page).toBeLessThanOrEqual(PHONE.width);

  // Keyboard only: the table takes focus (it is in the tab order) and scrolls with the arrow keys; Tab goes on to Copy code.
  await region.focus();
  expect(await focused(page)).toBe('div Table');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
  for (let i = 0; i < 10 && (await focused(page)) !== 'button Copy code'; i++) await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('button Copy code');
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page)).toBe('button Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('curl https://nimbus-outdoor.example/api/orders/NO-48213');

  await answer.screenshot({ path: `${SCREENSHOTS}markdown-phone.png` });
  expect(await axeProblems(page), 'at 375 px').toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await axeProblems(page), 'at 1280 px').toEqual([]);
  expect(problems).toEqual([]);
  await context.close();
});
