/**
 * The operator the console's "You are" list names is the one who acts: a take-over as Theo is
 * escalated to Theo's own address in the simulated service (it was the team queue's,
 * support@nimbus-outdoor.example, whoever took it), and the console and the widget show his name. A
 * name kept from a run with other operators falls back to the first of the list, not to none.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, launcher, openHostPage, panel, sendMessage, startWorld, storedSessionId, type World } from './harness.js';

let world: World;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

it('takes over and answers as the operator chosen in the console, everywhere', async () => {
  const shop = await openHostPage(world);
  await launcher(shop.page).click();
  await sendMessage(shop.page, 'Where is my order?');
  await panel(shop.page).getByText(/TrailPost/).first().waitFor({ timeout: ANSWER_MS });
  const id = await storedSessionId(world, shop.page);

  const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  // Left by an earlier run whose OPERATOR_PROFILES had an "ada": no option in this one.
  await page.addInitScript(() => localStorage.setItem('parley-demo-operator-name', 'ada'));
  await page.goto(`${world.bffOrigin}/console`);
  const you = page.locator('#op-name');
  await expect.poll(() => you.locator('option').count(), { timeout: ANSWER_MS }).toBe(2);
  expect(await you.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent)).toBe('Mara Lindqvist (mara)');

  await page.locator('#conversations button.conversation').filter({ hasText: `#${id}` }).click();
  await you.selectOption('theo');
  await page.getByRole('button', { name: 'Take over' }).click();
  const text = page.locator('#op-text');
  await expect.poll(() => text.isEditable(), { timeout: ANSWER_MS }).toBe(true);
  await text.fill('Theo here, I will look into it.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.locator('#thread .msg.operator').waitFor({ timeout: ANSWER_MS });

  expect(await page.locator('#detail-meta').textContent()).toContain('with Theo Adeyemi');
  expect(await page.locator('#thread .msg.operator .who').textContent()).toMatch(/^Theo Adeyemi · /);
  // The simulated service was told whom it went to: Theo, not the team's queue.
  const detail = (await (await fetch(`${world.bffOrigin}/sim/operator/conversations/${id}`)).json()) as { conversation: Record<string, unknown> };
  expect(detail.conversation).toMatchObject({ state: 'escalated', operatorName: 'theo', operatorEmail: 'theo@nimbus-outdoor.example' });

  // The visitor sees the same person.
  const log = panel(shop.page).getByRole('log');
  await log.getByText('Theo here, I will look into it.').waitFor({ timeout: ANSWER_MS });
  expect(await log.locator('.msg.operator .who .name').allTextContents()).toEqual(['Theo Adeyemi']);
  expect(shop.problems).toEqual([]);
  await context.close();
  await shop.context.close();
});
