/**
 * A message whose send broke off after the service took it (`send_uncertain`): the BFF finds it in
 * the service's history and puts it on the stream, so the tab that sent it sees it confirmed and
 * every other tab of the conversation shows it, before the answer to it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ANSWER_MS, axeProblems, launcher, openHostPage, panel, SCREENSHOTS, sendMessage, startWorld, type World } from './harness.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

/** The texts of the panel's messages, oldest first, each with its author's class (user/bot). */
const messages = (page: Page) =>
  panel(page)
    .getByRole('log')
    .locator('.msg')
    .evaluateAll((els) => els.map((el) => `${el.classList.contains('user') ? 'user' : 'bot'}: ${el.querySelector('.text, .bubble')?.textContent ?? el.textContent}`));

it('shows a send that broke off after the service took it in every tab, confirmed and in order (375 px)', async () => {
  const { page, context, problems } = await openHostPage(world, { viewport: { width: 375, height: 720 } });
  try {
    await launcher(page).click();
    await sendMessage(page, 'Hello there');
    await panel(page).getByRole('log').locator('.msg.bot').nth(1).waitFor({ timeout: ANSWER_MS });

    const other = await context.newPage();
    await other.setViewportSize({ width: 375, height: 720 });
    await other.goto(page.url());
    await launcher(other).click();
    await panel(other).getByRole('log').getByText('Hello there').waitFor();
    const before = await panel(other).getByRole('log').locator('.msg').count();

    // The service takes the next call, then its connection drops: the browser hears 502 send_uncertain.
    const fault = await fetch(`${world.bff.url}/sim/__faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reset: true, count: 1 }) });
    expect(fault.status).toBeLessThan(300);
    await sendMessage(page, 'Has my parcel left?');

    // The other tab gets it from the stream, then the agent's answer after it.
    const log = panel(other).getByRole('log');
    await log.getByText('Has my parcel left?').waitFor({ timeout: ANSWER_MS });
    await expect.poll(() => log.locator('.msg').count(), { timeout: ANSWER_MS }).toBeGreaterThanOrEqual(before + 2);
    const shown = await messages(other);
    const asked = shown.findIndex((m) => m.startsWith('user:') && m.includes('Has my parcel left?'));
    expect(asked, shown.join('\n')).toBeGreaterThanOrEqual(before - 1);
    expect(shown.slice(asked + 1).some((m) => m.startsWith('bot:')), shown.join('\n')).toBe(true);
    expect(shown.filter((m) => m.includes('Has my parcel left?'))).toHaveLength(1);

    // The sending tab: one copy, no longer "may have been sent".
    const mine = panel(page).getByRole('log');
    await expect.poll(() => mine.getByText('May have been sent', { exact: false }).count(), { timeout: ANSWER_MS }).toBe(0);
    expect(await mine.getByText('Has my parcel left?').count()).toBe(1);

    await other.screenshot({ path: join(SCREENSHOTS, 'uncertain-send-other-tab-375.png') });
    await page.screenshot({ path: join(SCREENSHOTS, 'uncertain-send-sender-375.png') });
    expect(await axeProblems(other)).toEqual([]);
    // The 502 is the browser's own console line for the failed request; nothing else went wrong.
    expect(problems.filter((p) => !/Failed to load resource: .* 502/.test(p))).toEqual([]);
  } finally {
    await context.close();
  }
});
