/**
 * The panel's header on a 375 px phone in every shipped language: the title stays whole next to
 * "Talk to a person" (German: "Mit einem Menschen sprechen") and the close button, and both
 * buttons stay on screen and clickable.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, launcher, openHostPage, panel, SCREENSHOTS, startWorld, type World } from './harness.js';

let world: World;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

it.each([
  ['en-US', 'Talk to a person', 'Close chat'],
  ['de-DE', 'Mit einem Menschen sprechen', 'Chat schließen'],
  ['fr-FR', 'Parler à une personne', 'Fermer le chat'],
])('%s at 375 px: the title is not cut and the header buttons are reachable', async (locale, human, close) => {
  const phone = await openHostPage(world, { viewport: { width: 375, height: 740 }, locale });
  const { page } = phone;
  await launcher(page).click();
  const closeButton = panel(page).getByRole('button', { name: close });
  // Alone beside the title, the close button still sits at the end of the header.
  const alone = (await closeButton.boundingBox())!;
  expect(alone.x + alone.width).toBe(375 - 10);
  // "Talk to a person" is offered from the start (ESCALATION_OFFER=always) and stays once there is a conversation.
  const input = panel(page).getByRole('textbox');
  await input.fill('hello');
  await input.press('Enter');
  const humanButton = panel(page).getByRole('button', { name: human });
  await humanButton.waitFor({ timeout: ANSWER_MS });

  const title = panel(page).getByRole('heading', { level: 2 });
  expect(await title.textContent()).toBe('Nimbus Outdoor');
  // No ellipsis: the text is no wider than its box (scrollWidth rounds to whole pixels, so measure the text).
  const widths = await title.evaluate((el) => {
    const text = document.createRange();
    text.selectNodeContents(el);
    return { text: text.getBoundingClientRect().width, box: el.getBoundingClientRect().width, scroll: el.scrollWidth, client: el.clientWidth };
  });
  expect(widths.scroll).toBeLessThanOrEqual(widths.client);
  expect(widths.text).toBeLessThanOrEqual(widths.box);
  for (const button of [humanButton, closeButton]) {
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    // Visible, enabled and not covered by anything: a click would land on it.
    await button.click({ trial: true });
  }
  await page.screenshot({ path: `${SCREENSHOTS}phone-header-${locale.slice(0, 2)}.png`, clip: { x: 0, y: 0, width: 375, height: 160 } });
  expect(phone.problems).toEqual([]);
  await phone.context.close();
});
