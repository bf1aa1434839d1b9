/**
 * The operator console's list and detail on a desktop and a phone: visitors told apart by the end of
 * their ids and their language, a filter for chats waiting on a person, archived chats out of the
 * default list, rich elements previewed by what they show, the rating as stars with its comment,
 * times without seconds, a finger-sized operator picker and several entries on a phone's screen.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, axeProblems, SCREENSHOTS, startWorld, type World } from './harness.js';

let world: World;
const TOKEN = 'console-list-token';
const BOT = 'console-list-bot';
const ids: string[] = [];

/** Talks to the simulated service as the BFF would. */
async function service(method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${world.bff.url}/sim${path}`, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}
async function operator(id: string, action: string, body: unknown = {}): Promise<void> {
  const res = await fetch(`${world.bff.url}/sim/operator/conversations/${id}/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`operator ${action}: ${res.status}`);
}

beforeAll(async () => {
  world = await startWorld({ SIM_REPLY_DELAY_MS: '5', UPSTREAM_ACCESS_TOKEN: TOKEN, AGENT_BOT_KEY: BOT });
  // Six visitors: one waits on a person, one was rated and archived, the others talk to the agent.
  for (let i = 0; i < 6; i++) {
    const sent = await service('POST', `/v1/bots/${BOT}/messages`, { message: 'Hello' });
    ids.push(String(sent.session));
  }
  await service('PATCH', `/v1/conversations/${ids[0]}/user`, { locale: 'de-DE', page: 'https://shop.example/products/summit-shell' });
  await operator(ids[1]!, 'escalate', { name: 'mara' });
  await operator(ids[1]!, 'messages', { badge: 'card', name: 'mara' });
  await service('POST', `/v1/bots/${BOT}/messages`, { message: 'Is it waterproof?', session: ids[1] });
  await operator(ids[2]!, 'escalate', { name: 'mara' });
  await operator(ids[2]!, 'archive');
  await service('PATCH', `/v1/conversations/${ids[2]}/user`, { csat: 4, csat_comment: 'Quick and kind' });
});
afterAll(async () => {
  await world?.close();
});

const rows = (page: Page) => page.locator('#conversations button.conversation');
const row = (page: Page, id: string) => rows(page).filter({ hasText: `#${id}` });

async function openConsole(viewport: { width: number; height: number }, locale: string) {
  const context = await world.browser.newContext({ viewport, locale, reducedMotion: 'reduce', ...(viewport.width < 500 && { hasTouch: true, isMobile: true }) });
  const page = await context.newPage();
  await page.goto(`${world.bffOrigin}/console`);
  await expect.poll(() => rows(page).count(), { timeout: ANSWER_MS }).toBe(5);
  return { context, page };
}

it('on a desktop: rows differ in their names, filters, rich previews, the rating and short times', async () => {
  const { context, page } = await openConsole({ width: 1280, height: 800 }, 'en-US');
  // The archived chat is out of the default list; the names end in the digits that differ.
  expect(await row(page, ids[2]!).count()).toBe(0);
  const names = await rows(page).locator('strong').allTextContents();
  expect(new Set(names).size).toBe(names.length);
  for (const name of names) expect(name).toMatch(/^Visitor …\d{4}$/);
  expect(await row(page, ids[0]!).locator('.when').textContent()).toContain('German · /products/summit-shell');
  // The handed-over chat: its last message previewed as what it is, and marked as waiting.
  await expect.poll(() => row(page, ids[1]!).locator('.preview').textContent(), { timeout: ANSWER_MS }).toBe('Customer: Is it waterproof?');

  await page.getByRole('radio', { name: /^Waiting/ }).check();
  await expect.poll(() => rows(page).count()).toBe(1);
  expect(await row(page, ids[1]!).count()).toBe(1);
  await row(page, ids[1]!).click();
  // A rich element in the thread says what it shows; times carry no seconds.
  expect(await page.locator('#thread .badge summary').first().textContent()).toMatch(/^Rich element: card · \S/);
  for (const who of await page.locator('#thread .who').allTextContents()) expect(who).toMatch(/ · \d{1,2}:\d{2}\s?[AP]M$/);
  expect(await axeProblems(page)).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOTS}console-desktop.png` });

  await page.getByRole('radio', { name: /^All/ }).check();
  await expect.poll(() => rows(page).count()).toBe(6);
  await row(page, ids[2]!).click();
  const rating = page.locator('#rating');
  await expect.poll(() => rating.textContent(), { timeout: ANSWER_MS }).toBe('Rating: ★★★★☆ 4/5 Quick and kind');
  expect(await rating.getByRole('img').getAttribute('aria-label')).toBe('Rated 4 of 5');
  expect(await page.locator('#detail-meta').textContent()).not.toContain('csat');
  await context.close();
});

it('on a 375 px phone: a finger-sized operator picker and more than two and a half entries in view', async () => {
  const { context, page } = await openConsole({ width: 375, height: 667 }, 'de-DE');
  const list = (await page.locator('aside.list').boundingBox())!;
  const first = (await rows(page).first().boundingBox())!;
  // Entries in the list's visible height, counted from the first.
  expect((list.y + list.height - first.y) / (first.height + 4)).toBeGreaterThan(2.5);
  await rows(page).first().click();
  expect((await page.locator('#op-name').boundingBox())!.height).toBeGreaterThanOrEqual(44);
  // Hours and minutes as German writes them ("0:09", "18:25"), no seconds or AM/PM.
  for (const who of await page.locator('#thread .who').allTextContents()) expect(who).toMatch(/ · \d{1,2}:\d{2}$/);
  expect(await axeProblems(page)).toEqual([]);
  await page.screenshot({ path: `${SCREENSHOTS}console-phone.png`, fullPage: true });
  await context.close();
});
