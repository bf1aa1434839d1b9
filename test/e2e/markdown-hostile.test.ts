/**
 * Hostile Markdown from the agent's side (a bot, an operator, a flow) in the real widget: a message
 * nested 2,000 block quotes deep, a 2,000 × 40 table, 80 KB of `[a](` and a 900 KB list nested 3,000
 * deep each show (formatted or as their plain text), never stop the messages after them, not after a
 * reload either (history replays them), and never hold the main thread for 200 ms or more.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, launcher, openHostPage, operatorAction, panel, sendMessage, startWorld, type World } from './harness.js';

let world: World;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

const HOSTILE: Record<string, string> = {
  '2,000 nested >': '>'.repeat(2000) + ' deep',
  '2,000 × 40 table': ['|' + ' h |'.repeat(40), '|' + '---|'.repeat(40), ...Array.from({ length: 2000 }, (_, r) => '|' + ` c${r} |`.repeat(40))].join('\n'),
  '80 KB of [a](': '[a]('.repeat(20_000),
  '900 KB, 3,000-deep list': Array.from({ length: 3000 }, (_, i) => ' '.repeat(i * 2) + '- item ' + 'x'.repeat(100))
    .join('\n')
    .slice(0, 900_000),
};

/** Starts counting the page's long tasks (the longest one is read by `longest`). */
const watchLongTasks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { longest: number };
    w.longest = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longest = Math.max(w.longest, e.duration);
    }).observe({ type: 'longtask' });
  });
const longest = (page: Page) => page.evaluate(() => (window as unknown as { longest: number }).longest);
const bubbles = (page: Page) => panel(page).locator('.msg.bot .bubble');

it('hostile Markdown shows as text, leaves later messages drawn (after a reload too) and never blocks for 200 ms', async () => {
  const { page, context, problems } = await openHostPage(world);
  await launcher(page).click();
  await sendMessage(page, 'hello');
  await bubbles(page).first().waitFor({ timeout: ANSWER_MS });
  await watchLongTasks(page);
  let n = 0;
  for (const [name, text] of Object.entries(HOSTILE)) {
    await operatorAction(world, page, 'messages', { text });
    await operatorAction(world, page, 'messages', { text: `**After** message ${++n}` });
    const after = panel(page).locator('.msg strong', { hasText: 'After' });
    await expect.poll(() => after.count(), { timeout: ANSWER_MS, message: name }).toBe(n);
    await page.waitForTimeout(300); // long tasks are reported after they end
    expect(await longest(page), name).toBeLessThan(200);
  }
  // Each hostile message is there, as its text.
  const texts = await bubbles(page).evaluateAll((els) => els.map((e) => e.textContent ?? ''));
  expect(texts.some((t) => t.includes('>>>>') && t.includes('deep'))).toBe(true);
  expect(texts.some((t) => t.includes('| c1999 |'))).toBe(true);
  expect(texts.some((t) => t.startsWith('[a]([a]('))).toBe(true);
  expect(texts.some((t) => t.includes('- item') && t.length > 800_000)).toBe(true);

  // History replays every message: the chat still draws them all, and what came after them.
  await page.reload();
  await launcher(page).click();
  await watchLongTasks(page);
  await expect.poll(() => panel(page).locator('.msg strong', { hasText: 'After' }).count(), { timeout: ANSWER_MS }).toBe(n);
  await page.waitForTimeout(300);
  expect(await longest(page), 'after a reload').toBeLessThan(200);
  expect(problems).toEqual([]);
  await context.close();
});
