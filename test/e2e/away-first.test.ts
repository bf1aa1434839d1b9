/**
 * "Talk to a person" before the first message while the team is away (docs/api.md "People"), in
 * headless Chromium at 1280 px and at 375 px with touch: the email form comes at once, with the
 * consent box and when the team is back, and nothing promises an answer now; the address given
 * before the conversation exists reaches the service once the first message has started it.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, axeProblems, composer, launcher, panel, SCREENSHOTS, sendMessage, startWorld, storedSessionId, type World } from './harness.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
// One short window two days from now (UTC): closed for the whole test, whatever the hour.
const closedNow = `${DAYS[(new Date().getUTCDay() + 2) % 7]} 09:00-10:00`;
const CONSENT = 'You may email me about this question.';
const SHOTS = process.env.VISITOR_SHOTS ?? SCREENSHOTS;

let world: World;
beforeAll(async () => {
  world = await startWorld({ SUPPORT_HOURS: closedNow, SUPPORT_TIMEZONE: 'UTC', CONSENT_TEXT: CONSENT, ESCALATION_OFFER: 'always', ESCALATION_OPERATOR_EMAIL: 'ops@nimbus-outdoor.example' });
});
afterAll(async () => {
  await world?.close();
});

/** The host page in a context of its own: a phone (touch) below 500 px. */
async function open(browser: Browser, viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport, reducedMotion: 'reduce', ...(viewport.width < 500 && { hasTouch: true, isMobile: true }) });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (msg) => void (msg.type() === 'error' && problems.push(msg.text())));
  page.on('pageerror', (err) => problems.push(err.message));
  await page.goto(world.host.url);
  return { context, page, problems };
}

it.each([
  ['1280', { width: 1280, height: 800 }],
  ['375', { width: 375, height: 740 }],
])('at %s px: a first "Talk to a person" offers the email form at once; the address reaches the service with the first message', async (size, viewport) => {
  const { context, page, problems } = await open(world.browser, viewport);
  const touch = viewport.width < 500;
  if (touch) await launcher(page).tap();
  else await launcher(page).click();
  await composer(page).waitFor({ timeout: ANSWER_MS });
  const human = panel(page).getByRole('button', { name: 'Talk to a person' });
  if (touch) await human.tap();
  else await human.click();

  // At once, before anything was written: when the team is back, and the form with its consent box.
  const email = panel(page).getByRole('textbox', { name: 'Leave your email and we will get back to you:' });
  await email.waitFor({ timeout: ANSWER_MS });
  const banner = panel(page).getByRole('status').filter({ hasText: /^Write your question\. Our team is away until .+ and will answer here then\.$/ });
  expect(await banner.count()).toBe(1);
  expect(await panel(page).getByRole('checkbox', { name: CONSENT }).count()).toBe(1);
  // Nothing promises an answer now.
  expect(await panel(page).textContent()).not.toMatch(/take it from here|will answer it\.|Connecting you/);
  expect(await axeProblems(page), `away form at ${size} px`).toEqual([]);
  await page.screenshot({ path: `${SHOTS}away-first-form-${size}.png` });

  await email.fill(`ada.${size}@example.com`);
  await panel(page).getByRole('checkbox', { name: CONSENT }).check();
  await panel(page).getByRole('button', { name: 'Notify me' }).click();
  await panel(page).getByText(`Thanks! We'll reply to ada.${size}@example.com.`).waitFor();
  expect(await storedSessionId(world, page)).toBeUndefined(); // no conversation yet: the address waits in the tab

  await sendMessage(page, 'My tent pole broke.');
  await expect.poll(() => storedSessionId(world, page), { timeout: ANSWER_MS }).toBeDefined();
  const upstream = async () => (await (await fetch(`${world.bff.url}/sim/operator/conversations/${await storedSessionId(world, page)}`)).json());
  await expect.poll(async () => (await upstream()).variables, { timeout: ANSWER_MS }).toMatchObject({ email: `ada.${size}@example.com`, consent_text: CONSENT });
  expect((await upstream()).conversation.state).toBe('escalated');
  // Shown as given, and not asked again.
  await panel(page).getByText(`Thanks! We'll reply to ada.${size}@example.com.`).waitFor();
  expect(await email.count()).toBe(0);
  expect(await axeProblems(page), `away thanks at ${size} px`).toEqual([]);
  await page.screenshot({ path: `${SHOTS}away-first-thanks-${size}.png` });
  expect(problems).toEqual([]);
  await context.close();
}, 90_000);
