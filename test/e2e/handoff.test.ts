/**
 * Handoff in the browser: "Talk to a person", the operator's messages with their name, and the
 * ended state after the conversation is archived, then a fresh conversation.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launcher, openHostPage, operatorAction, panel, SCREENSHOTS, sendMessage, startWorld, storedSessionId, type OpenedPage, type World } from './harness.js';

let world: World;
let tab: OpenedPage;
const ANSWER_MS = 20_000;
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
  // No conversation yet: nothing to hand over.
  expect(await panel(page).getByRole('button', { name: 'Talk to a person' }).count()).toBe(0);
  await sendMessage(page, 'How do returns work?');
  await log(page).getByText(/Returns are free/).waitFor({ timeout: ANSWER_MS });

  await panel(page).getByRole('button', { name: 'Talk to a person' }).click();
  await panel(page).getByRole('status').filter({ hasText: 'A person from our team will take it from here.' }).waitFor({ timeout: ANSWER_MS });
  await expect.poll(() => panel(page).getByRole('button', { name: 'Talk to a person' }).count()).toBe(0);

  await operator(page, 'messages', { text: 'Hi, Alex here. Which order is it?', name: 'Alex from Nimbus' });
  await log(page).getByText('Hi, Alex here. Which order is it?').waitFor({ timeout: ANSWER_MS });
  expect(await log(page).locator('.msg.operator .who').last().textContent()).toBe('Alex from Nimbus');
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
