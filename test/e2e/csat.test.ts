/**
 * The people behind the chat, end to end (docs/api.md "People"): escalation, a person answers, the
 * console archives the conversation, the visitor rates it (CSAT=after_operator), and the thanks
 * shows in the visitor's other tab too.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, launcher, openHostPage, operatorAction, panel, SCREENSHOTS, sendMessage, startWorld, type World } from './harness.js';

let world: World;
const log = (page: Page) => panel(page).getByRole('log');
const question = (page: Page) => panel(page).getByRole('group', { name: 'How did we do?' });

beforeAll(async () => {
  world = await startWorld({ CSAT: 'after_operator', ESCALATION_OPERATOR_EMAIL: 'ops@nimbus-outdoor.example' });
});
afterAll(async () => {
  await world?.close();
});

it('escalation → a person answers → archived → the visitor rates it, and every tab says thanks', async () => {
  const { page, context, problems } = await openHostPage(world, { viewport: { width: 1280, height: 860 } });
  await launcher(page).click();
  await sendMessage(page, 'How do returns work?');
  await log(page).getByText(/Returns are free/).waitFor({ timeout: ANSWER_MS });
  await panel(page).getByRole('button', { name: 'Talk to a person' }).click();
  await panel(page).getByText('A person from our team will take it from here.').waitFor({ timeout: ANSWER_MS });
  await operatorAction(world, page, 'messages', { text: 'Hi, Mara here. I have started your return.' });
  await log(page).getByText('I have started your return.').waitFor({ timeout: ANSWER_MS });

  // The same visitor in a second tab: one conversation, one stream.
  const other = await context.newPage();
  await other.goto(page.url());
  await launcher(other).click();
  await log(other).getByText('I have started your return.').waitFor({ timeout: ANSWER_MS });

  await operatorAction(world, page, 'archive');
  await question(page).waitFor({ timeout: ANSWER_MS });
  await question(other).waitFor({ timeout: ANSWER_MS });
  // The notice and the rating below made the log shorter: the operator's last line is still in view.
  await expect.poll(() => log(page).evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight)).toBeLessThan(2);
  await page.screenshot({ path: `${SCREENSHOTS}people-csat.png` });

  // Keyboard only: Tab into the group, arrows choose, Tab on to the comment and the button.
  await question(page).getByRole('radio').first().focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
  expect(await question(page).getByRole('radio', { name: 'Excellent' }).isChecked()).toBe(true);
  await panel(page).getByRole('textbox', { name: /Anything you would like to add/ }).fill('Mara was quick');
  await panel(page).getByRole('button', { name: 'Send rating' }).click();

  const thanks = (p: Page) => panel(p).getByRole('status').filter({ hasText: 'Thank you for your rating!' });
  await thanks(page).waitFor({ timeout: ANSWER_MS });
  await thanks(other).waitFor({ timeout: ANSWER_MS });
  expect(await question(other).count()).toBe(0);
  await page.screenshot({ path: `${SCREENSHOTS}people-csat-thanks.png` });

  // The BFF counted it once; a second rating is refused.
  const metrics = await (await fetch(`${world.bff.url}/metrics`)).text();
  expect(metrics).toMatch(/parley_csat_total\{score="5"\} 1\b/);
  await other.reload(); // the panel stays open in this tab after a reload
  await panel(other).getByText('This conversation has ended.').waitFor({ timeout: ANSWER_MS });
  expect(await question(other).count()).toBe(0);
  expect(problems).toEqual([]);
  await context.close();
});
