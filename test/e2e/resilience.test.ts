/**
 * Nothing lost: messages typed offline are sent once the browser is back online, and the
 * conversation keeps going across token expiry (short-lived tokens, refreshed in the background).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../helpers/wait.js';
import { ANSWER_MS, launcher, openHostPage, panel, sendMessage, startWorld, type OpenedPage, type World } from './harness.js';

let world: World;
let tab: OpenedPage;
const log = (page: Page) => panel(page).getByRole('log');
const stored = (page: Page) =>
  page.evaluate((key) => JSON.parse(localStorage.getItem(key) || '{}') as { token?: string; sessionId?: string; expiresAt?: string }, `parley:${world.bffOrigin}`);
/** The texts of the conversation's messages as the service has them (the simulator's console API). */
const serviceTexts = async (page: Page) => {
  const res = await fetch(`${world.bff.url}/sim/operator/conversations/${(await stored(page)).sessionId}`);
  return JSON.stringify(await res.json());
};

beforeAll(async () => {
  world = await startWorld({ SESSION_TOKEN_TTL: '30' });
  tab = await openHostPage(world);
  await launcher(tab.page).click();
  await sendMessage(tab.page, 'hello');
  await log(tab.page).locator('.msg.bot').nth(1).waitFor({ timeout: ANSWER_MS });
});
afterAll(async () => {
  await world?.close();
});

it('queues a message typed offline and sends it when the browser is back online', async () => {
  const { page, context } = tab;
  await context.setOffline(true);
  await panel(page).getByText("You're offline. Messages will be sent when you're back.").waitFor();
  await sendMessage(page, 'What are your opening hours?');
  await log(page).getByText('Waiting for connection…').waitFor();
  // Queued in the page: the service has not had the question, and no answer is shown.
  expect(await serviceTexts(page)).not.toContain('What are your opening hours?');
  expect(await log(page).getByText(/Basecamp store is open/).count()).toBe(0);

  await context.setOffline(false);
  await log(page).getByText(/Basecamp store is open/).waitFor({ timeout: ANSWER_MS });
  expect(await log(page).getByText('Waiting for connection…').count()).toBe(0);
});

it('keeps the conversation live across token expiry', async () => {
  const { page } = tab;
  const before = await stored(page);
  // Past the 30 s lifetime of the first token: it was refreshed, and the stream moved to the new one.
  // Time is the subject here: what is awaited is the clock passing the first token's expiry.
  await expect.poll(async () => (await stored(page)).token, { timeout: 40_000 }).not.toBe(before.token);
  await until('the first token expired', () => Date.now() > Date.parse(before.expiresAt!) + 1_000, 40_000);
  const after = await stored(page);
  expect(after.sessionId).toBe(before.sessionId);
  expect(after.token).not.toBe(before.token);
  await sendMessage(page, 'shipping');
  await log(page).getByText(/free over €75/).waitFor({ timeout: ANSWER_MS });
  expect(tab.problems).toEqual([]);
}, 60_000);
