/**
 * The answer to a conversation's first message is lost (the connection resets after the BFF
 * started the conversation): the widget tries again with the same startKey and lands in the
 * conversation the first try made. The service holds one conversation, the visitor sees one
 * message and one answer.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { join } from 'node:path';
import { ANSWER_MS, axeProblems, launcher, openHostPage, panel, SCREENSHOTS, sendMessage, startWorld, storedSessionId, type World } from './harness.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

const conversations = async () => ((await (await fetch(`${world.bff.url}/sim/operator/conversations`)).json()) as { conversations: Array<{ id: number | string }> }).conversations;

it('lands a first message whose answer was lost in the one conversation it started (375 px)', async () => {
  const { page, context, problems } = await openHostPage(world, { viewport: { width: 375, height: 720 } });
  try {
    const before = (await conversations()).length;
    let lost = 0;
    await page.route('**/api/session', async (route) => {
      if (route.request().method() !== 'POST' || lost++ > 0) return route.continue();
      await route.fetch(); // the BFF starts the conversation…
      await route.abort('connectionreset'); // …and its answer never reaches the browser
    });
    await launcher(page).click();
    await sendMessage(page, 'Where is my order?');
    const log = panel(page).getByRole('log');
    await log.locator('.msg.bot').nth(1).waitFor({ timeout: ANSWER_MS });
    expect(lost).toBe(2);
    const after = await conversations();
    expect(after.length).toBe(before + 1);
    expect(after.map((c) => String(c.id))).toContain(await storedSessionId(world, page));
    expect(await log.locator('.msg.user').count()).toBe(1);
    expect(await log.getByText('Where is my order?').count()).toBe(1);
    await page.screenshot({ path: join(SCREENSHOTS, 'lost-start-375.png') });
    expect(await axeProblems(page)).toEqual([]);
    // The aborted request is the browser's own console error; nothing else went wrong.
    expect(problems.filter((p) => !/Failed to load resource|ERR_CONNECTION_RESET/.test(p))).toEqual([]);
  } finally {
    await context.close();
  }
});
