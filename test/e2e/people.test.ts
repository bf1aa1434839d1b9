/**
 * Before the first message, in the browser (docs/api.md "People"): the pre-chat form
 * (PRECHAT_FIELDS, PRECHAT_REQUIRED, CONSENT_TEXT) filled in with the keyboard at phone size, and
 * "Talk to a person" offered before the first message (ESCALATION_OFFER=always): the conversation
 * that message starts reaches the service escalated, with the visitor's name and address.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, composer, launcher, openHostPage, panel, SCREENSHOTS, startWorld, storedSessionId, type World } from './harness.js';

let world: World;
const CONSENT = 'You may email me about this question.';
const form = (page: Page) => panel(page).getByRole('form', { name: 'Before we start, tell us how to reach you.' });
/** What has focus inside the widget's shadow root: its role-ish tag and accessible text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector('[data-parley]')?.shadowRoot?.activeElement as HTMLElement | null;
    return el ? `${el.tagName.toLowerCase()}:${el.getAttribute('type') ?? ''}:${el.textContent || el.getAttribute('aria-label') || ''}` : 'none';
  });

beforeAll(async () => {
  world = await startWorld({ PRECHAT_FIELDS: 'name,email', PRECHAT_REQUIRED: 'true', CONSENT_TEXT: CONSENT, ESCALATION_OPERATOR_EMAIL: 'ops@nimbus-outdoor.example' });
});
afterAll(async () => {
  await world?.close();
});

it('asks name and address first, by keyboard at 375 px; a person asked for before the first message gets the conversation', async () => {
  const { page, problems } = await openHostPage(world, { viewport: { width: 375, height: 740 } });
  await launcher(page).focus();
  await page.keyboard.press('Enter');
  await form(page).waitFor({ timeout: ANSWER_MS });
  // The form took the place of the text box the panel opened with, and its first box took focus.
  await expect.poll(() => focused(page), { timeout: 5_000 }).toBe('input:text:');
  expect(await panel(page).getByText('All fields are required.').count()).toBe(1);
  // Nothing gets past it: no text box, no starter questions, no Skip (required).
  expect(await composer(page).count()).toBe(0);
  expect(await panel(page).getByRole('group', { name: 'Suggested questions' }).count()).toBe(0);
  expect(await panel(page).getByRole('button', { name: 'Skip' }).count()).toBe(0);

  // Empty, the name is asked for and keeps focus.
  await page.keyboard.press('Enter');
  await panel(page).getByRole('alert').filter({ hasText: 'Please enter your name.' }).waitFor();
  expect(await focused(page)).toBe('input:text:');
  await page.keyboard.type('Ada Lovelace');
  await page.keyboard.press('Tab');
  await page.keyboard.type('ada@example.com');
  await page.keyboard.press('Enter');
  // The address without the consent the site asks for: the box says why.
  await panel(page).getByRole('alert').filter({ hasText: 'Please tick the box to agree first.' }).waitFor();
  expect(await focused(page)).toBe('input:checkbox:');
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('button:submit:Start chatting');
  await page.screenshot({ path: `${SCREENSHOTS}people-prechat.png` });
  await page.keyboard.press('Enter');
  await composer(page).waitFor();
  await panel(page).getByRole('group', { name: 'Suggested questions' }).waitFor();

  // A person before the first message: the visitor is told to write.
  await panel(page).getByRole('button', { name: 'Talk to a person' }).focus();
  await page.keyboard.press('Enter');
  await panel(page).getByText('Write your question and a person from our team will answer it.').waitFor();
  // The button went: focus is in the text box, not on <body>.
  expect(await focused(page)).toMatch(/^textarea:/);
  await page.keyboard.type('My boots leak at the seam.');
  await page.keyboard.press('Enter');
  await panel(page).getByText('A person from our team will take it from here.').waitFor({ timeout: ANSWER_MS });

  // The service has it escalated, with the name, the address and its consent (the demo takes
  // identity tokens, so a page-given profileName is not sent: the name is a contact variable).
  const upstream = await (await fetch(`${world.bff.url}/sim/operator/conversations/${await storedSessionId(world, page)}`)).json();
  expect(upstream.conversation.state).toBe('escalated');
  await expect.poll(async () => (await (await fetch(`${world.bff.url}/sim/operator/conversations/${upstream.conversation.id}`)).json()).variables).toMatchObject({
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    consent_text: CONSENT,
  });
  expect(problems).toEqual([]);
}, 90_000);
