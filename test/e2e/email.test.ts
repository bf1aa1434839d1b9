/**
 * Continuity by email in the browser: a visitor leaves an address in the shop and closes the tab,
 * an operator answers, the email lands in the demo's Outbox, and its continue link reopens the
 * conversation in the shop on another device, with the link's fragment gone from the address bar.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, axeProblems, launcher, openHostPage, operatorAction, panel, SCREENSHOTS, sendMessage, startWorld, type World } from './harness.js';

let world: World;

beforeAll(async () => {
  // No SMTP_URL: the demo's own mail catcher, shown at /outbox.
  world = await startWorld({ SIM_REPLY_DELAY_MS: '5', EMAIL_AFTER_SEC: '1' });
});
afterAll(async () => {
  await world?.close();
});

it('an operator answer after the visitor left reaches the Outbox, and its continue link reopens the conversation in the shop', async () => {
  const shop = await openHostPage(world, { url: `${world.bffOrigin}/` });
  await launcher(shop.page).click();
  await sendMessage(shop.page, 'Do the boots run small?');
  await expect.poll(() => shop.page.evaluate((key) => localStorage.getItem(key) !== null, `parley:${world.bffOrigin}`), { timeout: ANSWER_MS }).toBe(true);
  const stored = await shop.page.evaluate((key) => JSON.parse(localStorage.getItem(key)!) as { sessionId: string; token: string }, `parley:${world.bffOrigin}`);
  const contact = await fetch(`${world.bff.url}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${stored.token}` }, body: JSON.stringify({ email: 'ada@example.com' }) });
  expect(contact.status).toBe(202);
  await operatorAction(world, shop.page, 'escalate', { name: 'mara' });
  await shop.context.close(); // the visitor leaves
  // Gone once the BFF has seen the visitor's stream end: an answer before that would be seen.
  const streamsOpen = async () => Number(/^parley_streams_open (\d+)$/m.exec(await (await fetch(`${world.bff.url}/metrics`)).text())?.[1]);
  await expect.poll(streamsOpen, { timeout: ANSWER_MS }).toBe(0);

  const answer = await fetch(`${world.bff.url}/sim/operator/conversations/${stored.sessionId}/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'mara', text: 'They run **half a size small**: take one up.' }) });
  expect(answer.status).toBe(201);

  // Another device: the Outbox, as the visitor's mailbox.
  const mailbox = await world.browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const outbox = await mailbox.newPage();
  await expect
    .poll(async () => {
      await outbox.goto(`${world.bffOrigin}/outbox`);
      return outbox.getByRole('heading', { level: 2 }).count();
    }, { timeout: 2 * ANSWER_MS })
    .toBe(1);
  const email = outbox.frameLocator('iframe.mail-html');
  await email.getByText('half a size small').waitFor();
  expect(await axeProblems(outbox), 'Outbox at 1280 px').toEqual([]);
  await outbox.screenshot({ path: `${SCREENSHOTS}outbox-1280.png`, fullPage: true });
  await outbox.setViewportSize({ width: 375, height: 740 });
  expect(await axeProblems(outbox), 'Outbox at 375 px').toEqual([]);
  expect(await outbox.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
  await outbox.screenshot({ path: `${SCREENSHOTS}outbox-375.png`, fullPage: true });
  await outbox.setViewportSize({ width: 1280, height: 900 });

  // The continue link opens the shop in the top window, where the chat opens on the conversation.
  await email.getByRole('link', { name: 'Continue the conversation' }).click();
  await outbox.waitForURL(`${world.bffOrigin}/`, { timeout: ANSWER_MS });
  await panel(outbox).getByText('half a size small').waitFor({ timeout: ANSWER_MS });
  await panel(outbox).getByText('Do the boots run small?').waitFor();
  expect(await outbox.evaluate(() => location.hash)).toBe('');
  expect(await outbox.evaluate((key) => (JSON.parse(localStorage.getItem(key)!) as { sessionId: string }).sessionId, `parley:${world.bffOrigin}`)).toBe(stored.sessionId);

  // Spent: a second visit with the same link opens nothing.
  const again = await fetch(`${world.bff.url}/api/resume`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: 'x' }) });
  expect(again.status).toBe(401);
  await mailbox.close();
});
