/**
 * Handoff in the browser: a starter question, "Talk to a person", the operator's messages with
 * their name and picture after the line saying they joined, and the ended state after the
 * conversation is archived, then a fresh conversation.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, launcher, openHostPage, operatorAction, panel, SCREENSHOTS, sendMessage, startWorld, storedSessionId, type OpenedPage, type World } from './harness.js';

let world: World;
let tab: OpenedPage;
const log = (page: Page) => panel(page).getByRole('log');

const sessionId = (page: Page) => storedSessionId(world, page);
const operator = (page: Page, action: string, body?: unknown) => operatorAction(world, page, action, body);

beforeAll(async () => {
  world = await startWorld({ ESCALATION_OPERATOR_EMAIL: 'ops@nimbus-outdoor.example' });
  tab = await openHostPage(world);
});
afterAll(async () => {
  await world?.close();
});

it('hands the conversation to a person, shows who answers, ends it and starts afresh', async () => {
  const { page } = tab;
  await launcher(page).click();
  // ESCALATION_OFFER=always (the default): a person is offered before the first message too.
  await panel(page).getByRole('button', { name: 'Talk to a person' }).waitFor({ timeout: ANSWER_MS });
  // The demo's starter questions: one click asks.
  const starters = panel(page).getByRole('group', { name: 'Suggested questions' });
  await starters.waitFor({ timeout: ANSWER_MS }); // they come with /api/config
  expect(await starters.getByRole('button').allTextContents()).toEqual(['Where is my order?', 'Which boot size should I pick?', 'Can I return a worn item?']);
  await starters.getByRole('button', { name: 'Can I return a worn item?' }).click();
  await log(page).getByText(/Returns are free/).waitFor({ timeout: ANSWER_MS });
  expect(await starters.count()).toBe(0);
  // The bot's answers are signed with its configured name (WIDGET_BOT_NAME, "Juniper" in the demo).
  expect(await log(page).locator('.msg.bot .who').last().textContent()).toContain('Juniper');

  await panel(page).getByRole('button', { name: 'Talk to a person' }).click();
  await panel(page).getByRole('status').filter({ hasText: 'A person from our team will take it from here.' }).waitFor({ timeout: ANSWER_MS });
  await expect.poll(() => panel(page).getByRole('button', { name: 'Talk to a person' }).count()).toBe(0);

  // The console signs as the username `mara`; OPERATOR_PROFILES gives her name and picture.
  await operator(page, 'messages', { text: 'Hi, Mara here. Which order is it?', name: 'mara' });
  await operator(page, 'messages', { text: 'I can see two open orders.', name: 'mara' });
  await log(page).getByText('I can see two open orders.').waitFor({ timeout: ANSWER_MS });
  expect(await log(page).locator('.joined').allTextContents()).toEqual(['Mara Lindqvist joined the conversation']);
  const header = log(page).locator('.msg.operator .who');
  expect(await header.count()).toBe(1); // once for her two messages
  expect(await header.locator('.name').textContent()).toBe('Mara Lindqvist');
  const picture = header.locator('img');
  expect(await picture.getAttribute('alt')).toBe('');
  // The picture is site-relative on the BFF and loads under the page's strict CSP.
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  // A second operator: a line saying he joined, his own name.
  await operator(page, 'messages', { text: 'Theo from the warehouse here.', name: 'theo' });
  await log(page).getByText('Theo from the warehouse here.').waitFor({ timeout: ANSWER_MS });
  expect(await log(page).locator('.joined').last().textContent()).toBe('Theo Adeyemi joined the conversation');
  expect(await log(page).locator('.msg.operator .who .name').allTextContents()).toEqual(['Mara Lindqvist', 'Theo Adeyemi']);
  await page.screenshot({ path: `${SCREENSHOTS}desktop-handoff.png` });

  const first = await sessionId(page);
  await operator(page, 'archive');
  await panel(page).getByText('This conversation has ended.').waitFor({ timeout: ANSWER_MS });
  expect(await panel(page).getByRole('textbox').count()).toBe(0);
  await panel(page).getByRole('button', { name: 'Start a new conversation' }).click();
  expect(await log(page).locator('.msg.user').count()).toBe(0);

  await sendMessage(page, 'shipping');
  await log(page).getByText(/free over €75/).waitFor({ timeout: ANSWER_MS });
  const second = await sessionId(page);
  expect(second).toBeTruthy();
  expect(second).not.toBe(first);
  expect(tab.problems).toEqual([]);
});
