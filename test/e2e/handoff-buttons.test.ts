/**
 * A bot's buttons once a person has the conversation: shown disabled (their value would reach the
 * person as the visitor's words), in English on a desktop and in Arabic on a phone.
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
  it(`disables the bot's buttons while a person has the conversation (${locale}, ${width} px)`, async () => {
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
      await expect.poll(() => buttons.first().isDisabled(), { timeout: ANSWER_MS }).toBe(true);
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
