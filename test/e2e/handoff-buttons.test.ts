/**
 * Buttons once a person has the conversation, the bot's earlier ones and the person's own quick replies:
 * they work, and a tap sends the label the visitor chose to the person (not a value meant for a bot), in
 * English on a desktop and in Arabic on a phone.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { join } from 'node:path';
import { ANSWER_MS, axeProblems, launcher, openHostPage, operatorAction, panel, SCREENSHOTS, startWorld, type World } from './harness.js';

let world: World;
beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

for (const { locale, width, send } of [
  { locale: 'en-US', width: 1280, send: 'Send' },
  { locale: 'ar-EG', width: 375, send: 'إرسال' },
]) {
  it(`a tap on a button sends its label to the person who has the conversation (${locale}, ${width} px)`, async () => {
    const { page, context, problems } = await openHostPage(world, { locale, viewport: { width, height: 760 } });
    try {
      await launcher(page).click();
      const box = panel(page).locator('textarea');
      await box.fill('buttons');
      await box.press('Enter');
      const buttons = panel(page).locator('.buttons button');
      await buttons.first().waitFor({ timeout: ANSWER_MS });
      expect(await buttons.first().isEnabled()).toBe(true);
      await operatorAction(world, page, 'escalate', { name: 'mara' });
      // The person sends quick replies of their own: they arrive working, not greyed out.
      await operatorAction(world, page, 'messages', { badge: 'quick_replies', name: 'mara' });
      const replies = panel(page).locator('.msg.operator .replies button');
      await replies.first().waitFor({ timeout: ANSWER_MS });
      expect(await replies.first().isEnabled()).toBe(true);
      expect(await buttons.first().isEnabled()).toBe(true);
      const mine = panel(page).locator('.msg.user');
      const sent = async () => ((await mine.last().textContent()) ?? '').trim();
      // A quick reply shows while its message is the last: the person's first, then the bot's earlier button.
      const reply = (await replies.first().textContent())!.trim();
      await replies.first().click();
      await expect.poll(sent, { timeout: ANSWER_MS }).toContain(reply);
      const label = (await buttons.first().textContent())!.trim();
      await buttons.first().click();
      await expect.poll(sent, { timeout: ANSWER_MS }).toContain(label);
      // The assistant's messages carry the AI mark; the person's do not.
      expect(await panel(page).locator('.msg.bot .who .ai').count()).toBeGreaterThan(0);
      expect(await panel(page).locator('.msg.operator .who .ai').count()).toBe(0);
      // The visitor still writes to the person.
      expect(await panel(page).getByRole('button', { name: send }).count()).toBe(1);
      await page.screenshot({ path: join(SCREENSHOTS, `handoff-buttons-${locale}-${width}.png`) });
      expect(await axeProblems(page)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
