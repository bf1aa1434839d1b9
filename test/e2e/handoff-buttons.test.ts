/**
 * A bot's buttons once a person has the conversation: they still work, and a tap sends the label the
 * visitor chose to the person (not a value meant for a bot), in English on a desktop and in Arabic on a phone.
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
      await panel(page).locator('.msg.operator').first().waitFor({ timeout: ANSWER_MS });
      expect(await buttons.first().isEnabled()).toBe(true);
      const label = (await buttons.first().textContent())!.trim();
      await buttons.first().click();
      const mine = panel(page).locator('.msg.user');
      await expect.poll(async () => (await mine.last().textContent()) ?? '', { timeout: ANSWER_MS }).toContain(label);
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
