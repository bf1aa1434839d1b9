/**
 * The operator console from the keyboard only: focus on a list entry survives the console's polls
 * (it rebuilt the list every 1.5 s and threw focus to <body>), and selecting a conversation, taking
 * it over and archiving it each leave focus in the console, also when the conversation is archived
 * elsewhere while the operator types a reply (focus goes to a notice, the draft stays). Then axe on
 * the console, the inspector and the shop's ribbon, at every impact (harness.ts's axeProblems keeps
 * serious and critical only).
 */
import type axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, axeProblems, launcher, openHostPage, operatorAction, panel, SCREENSHOTS, sendMessage, startWorld, storedSessionId, type OpenedPage, type World } from './harness.js';

let world: World;
/** Two visitors, so the list has an order that can change. */
let older: OpenedPage;
let newer: OpenedPage;

/** Every axe violation, whatever its impact, optionally for some rules only. */
async function allAxeProblems(page: Page, rules?: string[]): Promise<string[]> {
  await axeProblems(page); // injects axe-core once
  return page.evaluate(async (only) => {
    const options = { resultTypes: ['violations'] as axe.resultGroups[], ...(only && { runOnly: { type: 'rule' as const, values: only } }) };
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, options);
    return result.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}) at ${JSON.stringify(n.target)}`));
  }, rules);
}

/** The focused element, described: `button.conversation #3`, `h2#detail-title`, `body`... */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return 'body';
    const id = el.id ? `#${el.id}` : '';
    const conversation = el.closest('button.conversation')?.querySelector('.when')?.textContent?.match(/#(\d+)/)?.[1];
    return `${el.tagName.toLowerCase()}${id}${el.classList.contains('conversation') ? '.conversation' : ''}${conversation ? ` ${conversation}` : ''}`;
  });
}

/** The conversation ids of the list's entries, top to bottom. */
function rowIds(page: Page): Promise<string[]> {
  return page.locator('#conversations .when').evaluateAll((all) => all.map((w) => w.textContent!.match(/#(\d+)/)![1]!));
}

/** Presses `key` (Tab or Shift+Tab) until `want` has focus (at most 40 presses). */
async function tabTo(page: Page, want: string, key = 'Tab') {
  for (let i = 0; i < 40; i++) {
    if ((await focused(page)) === want) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${want}; focus is on ${await focused(page)}`);
}

/** Resolves after `count` of the console's list polls have been answered and drawn. */
async function polls(page: Page, count: number) {
  for (let i = 0; i < count; i++) await page.waitForResponse((r) => /\/operator\/conversations$/.test(r.url()), { timeout: ANSWER_MS });
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function visitor(text: string): Promise<OpenedPage> {
  const shop = await openHostPage(world);
  await launcher(shop.page).click();
  await sendMessage(shop.page, text);
  await panel(shop.page).getByText(/TrailPost|free over/).first().waitFor({ timeout: ANSWER_MS });
  return shop;
}

/** The console in a browser context of its own, once it lists the two visitors' conversations. */
async function openConsole() {
  const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${world.bffOrigin}/console`);
  const rows = page.locator('#conversations button.conversation');
  await expect.poll(() => rows.count(), { timeout: ANSWER_MS }).toBeGreaterThanOrEqual(2);
  return { context, page, rows };
}

/** A new visitor's conversation, opened in a console from the keyboard, with focus on Take over. */
async function onTakeOver(text: string) {
  const shop = await visitor(text);
  const id = (await storedSessionId(world, shop.page))!;
  const { context, page } = await openConsole();
  await tabTo(page, `button.conversation ${id}`);
  await page.keyboard.press('Enter');
  await tabTo(page, 'button#take-over');
  return { shop, id, context, page };
}

beforeAll(async () => {
  world = await startWorld({ SIM_REPLY_DELAY_MS: '5' });
  older = await visitor('Where is my order?');
  newer = await visitor('shipping');
});
afterAll(async () => {
  await world?.close();
});

it('focus on a list entry survives the polls, even when its conversation moves to the top', async () => {
  const { context, page } = await openConsole();
  const ids = await rowIds(page);
  const [top, second] = ids as [string, string];

  // The older visitor's entry is second: reach it with Tab and mark the element itself.
  await tabTo(page, `button.conversation ${second}`);
  await page.evaluate(() => ((document.activeElement as HTMLElement).dataset.marked = 'yes'));
  await polls(page, 2);
  expect(await focused(page)).toBe(`button.conversation ${second}`);

  // The older visitor writes again: that conversation goes to the top of the list, focus goes with it.
  await sendMessage(older.page, 'Thanks! And returns?');
  await expect.poll(async () => (await rowIds(page))[0], { timeout: ANSWER_MS }).toBe(second);
  await polls(page, 2);
  expect(await focused(page)).toBe(`button.conversation ${second}`);
  // The same element, updated in place, not a new one given focus again (a screen reader keeps its place).
  expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.marked)).toBe('yes');
  expect(await rowIds(page)).toEqual([second, top, ...ids.slice(2)]);
  await context.close();
});

it('select, take over and archive with the keyboard each leave focus in the console', async () => {
  const { context, page, rows } = await openConsole();
  const id = (await rows.filter({ has: page.locator('.pill.active') }).first().locator('.when').textContent())!.match(/#(\d+)/)![1]!;

  // Not escalated: the reply box is read-only, so the conversation's heading takes focus.
  await tabTo(page, `button.conversation ${id}`);
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page), { timeout: ANSWER_MS }).toBe('h2#detail-title');
  expect(await page.locator('#detail-title').textContent()).toContain(`#${id}`);
  expect(await page.locator('#op-text').isEditable()).toBe(false);
  expect(await page.locator('#op-text').getAttribute('aria-disabled')).toBe('true');
  await polls(page, 1);
  expect(await focused(page)).toBe('h2#detail-title');

  // Take over hides itself: the reply box, now enabled, takes focus.
  await tabTo(page, 'button#take-over');
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page), { timeout: ANSWER_MS }).toBe('textarea#op-text');
  expect(await page.locator('#take-over').isHidden()).toBe(true);

  // Archive, confirmed, becomes disabled: focus goes back to the archived entry in the list.
  await tabTo(page, 'button#archive', 'Shift+Tab');
  page.once('dialog', (dialog) => void dialog.accept());
  await page.keyboard.press('Enter');
  await page.getByRole('status').filter({ hasText: 'Conversation archived.' }).waitFor({ timeout: ANSWER_MS });
  await expect.poll(() => focused(page), { timeout: ANSWER_MS }).toBe(`button.conversation ${id}`);
  expect(await rows.filter({ hasText: `#${id} ·` }).locator('.pill').first().textContent()).toMatch(/^archived/);
  await polls(page, 1);
  expect(await focused(page)).toBe(`button.conversation ${id}`);

  for (const size of [{ width: 375, height: 740 }, { width: 1280, height: 800 }]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `${SCREENSHOTS}console-focus-${size.width}.png`, fullPage: true });
  }
  await context.close();
});

it("after Take over, the thread stays at its end and the operator's reply is in view (the header grows and the thread shrinks under it)", async () => {
  const shop = await visitor('Where is my order?');
  for (const text of ['shipping', 'returns', 'Where is my order?', 'shipping']) await sendMessage(shop.page, text);
  const id = (await storedSessionId(world, shop.page))!;
  const context = await world.browser.newContext({ viewport: { width: 1100, height: 800 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await page.goto(`${world.bffOrigin}/console`);
  await page.locator('#conversations button.conversation').filter({ hasText: `#${id} ·` }).click();
  const thread = page.locator('#thread');
  await expect.poll(() => thread.locator('li').count(), { timeout: ANSWER_MS }).toBeGreaterThanOrEqual(10);
  const fromEnd = () => thread.evaluate((t) => t.scrollHeight - t.scrollTop - t.clientHeight);
  expect(await thread.evaluate((t) => t.scrollHeight > t.clientHeight)).toBe(true);
  await expect.poll(fromEnd, { timeout: ANSWER_MS }).toBeLessThan(40);
  await page.locator('#take-over').click();
  await expect.poll(() => page.locator('#op-text').isEditable(), { timeout: ANSWER_MS }).toBe(true);
  await page.locator('#op-text').fill('Mara here: your parcel left our warehouse this morning.');
  await page.locator('#op-text').press('Enter');
  await thread.getByText('your parcel left our warehouse').waitFor({ timeout: ANSWER_MS });
  await expect.poll(fromEnd, { timeout: ANSWER_MS }).toBeLessThan(40);
  await page.screenshot({ path: `${SCREENSHOTS}console-reply-in-view.png` });
  await context.close();
  await shop.context.close();
});

it('a conversation archived elsewhere while the operator types a reply moves focus to a notice and keeps the draft', async () => {
  const { shop, id, context, page } = await onTakeOver('Can I still change my order?');
  await page.keyboard.press('Enter');
  await expect.poll(() => focused(page), { timeout: ANSWER_MS }).toBe('textarea#op-text');
  const draft = 'Yes, until it ships: which size would you like';
  await page.keyboard.type(draft);

  // Archived by the route the console's own button calls, as another operator's tab would.
  // The notice's live region is on the page, empty, before the archive: mark it to find it again.
  await page.evaluate(() => document.querySelectorAll('#detail [role=status]').forEach((n) => ((n as HTMLElement).dataset.before = n.textContent!)));
  await operatorAction(world, shop.page, 'archive');
  await expect.poll(() => page.locator('#op-text').isEditable(), { timeout: ANSWER_MS }).toBe(false);
  await expect.poll(() => focused(page), { timeout: ANSWER_MS }).not.toBe('body');
  expect(await focused(page)).toBe('p#ended');
  const notice = page.locator('#ended');
  expect(await notice.evaluate((n) => [n.getAttribute('role'), n.dataset.before])).toEqual(['status', '']);
  expect(await notice.textContent()).toMatch(/archived elsewhere.*unsent reply is kept/);
  expect(await page.locator('#status').textContent(), 'no out-of-date "You took over"').toBe('');
  expect(await page.locator('#op-text').isEditable()).toBe(false);
  expect(await page.locator('#op-text').inputValue()).toBe(draft);
  // The next polls leave both alone.
  await polls(page, 2);
  expect(await focused(page)).toBe('p#ended');
  expect(await page.locator('#op-text').inputValue()).toBe(draft);
  // The kept draft can be reached and selected to copy, and Enter there sends nothing.
  await tabTo(page, 'textarea#op-text');
  await page.keyboard.press('Control+A');
  expect(await page.locator('#op-text').evaluate((box: HTMLTextAreaElement) => box.value.slice(box.selectionStart, box.selectionEnd))).toBe(draft);
  await page.keyboard.press('Enter');
  expect(await page.locator('#op-text').inputValue()).toBe(draft);
  expect(await page.locator('#status').textContent()).toBe('');
  await page.locator('#ended').focus();
  expect(await allAxeProblems(page), 'console, the notice shown').toEqual([]);

  await page.setViewportSize({ width: 375, height: 740 });
  await page.screenshot({ path: `${SCREENSHOTS}console-ended-375.png`, fullPage: true });
  // Opening another conversation takes the notice away.
  await tabTo(page, `button.conversation ${(await rowIds(page)).find((other) => other !== id)}`, 'Shift+Tab');
  await page.keyboard.press('Enter');
  await expect.poll(() => notice.textContent(), { timeout: ANSWER_MS }).toBe('');
  // The draft stays with its customer: not in the other conversation's box, and back in its own.
  expect(await page.locator('#op-text').inputValue()).toBe('');
  // Archived and no longer open, it left the default list: "All" shows it.
  expect(await page.locator('#conversations button.conversation').filter({ hasText: `#${id} ·` }).count()).toBe(0);
  await page.getByRole('radio', { name: /^All/ }).check();
  await page.locator('#conversations button.conversation').filter({ hasText: `#${id} ·` }).focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.locator('#op-text').inputValue(), { timeout: ANSWER_MS }).toBe(draft);
  await context.close();
  await shop.context.close();
});

it('a conversation taken over elsewhere while focus is on Take over leaves focus on its heading', async () => {
  const { shop, context, page } = await onTakeOver('And shipping to Norway?');
  await operatorAction(world, shop.page, 'escalate'); // another operator's console
  await expect.poll(() => page.locator('#take-over').isHidden(), { timeout: ANSWER_MS }).toBe(true);
  await expect.poll(() => focused(page), { timeout: ANSWER_MS }).toBe('h2#detail-title');
  await context.close();
  await shop.context.close();
});

it('axe finds nothing on the console and the inspector, and the shop ribbon is in a landmark', async () => {
  const { context, page, rows } = await openConsole();
  expect(await allAxeProblems(page), 'console, nothing selected').toEqual([]);
  await rows.first().focus();
  await page.keyboard.press('Enter');
  await page.locator('#detail').waitFor();
  expect(await allAxeProblems(page), 'console, a conversation open').toEqual([]);

  // An answer with a table and code, on a phone: they scroll sideways, and the keyboard can scroll them.
  const shop = await openHostPage(world);
  await launcher(shop.page).click();
  await sendMessage(shop.page, 'markdown');
  await panel(shop.page).locator('table').first().waitFor({ timeout: ANSWER_MS });
  const id = (await storedSessionId(world, shop.page))!;
  await page.setViewportSize({ width: 375, height: 740 });
  await expect.poll(() => rowIds(page), { timeout: ANSWER_MS }).toContain(id);
  // Open, it is in the default list (which leaves out archived chats).
  expect(await page.locator('#conversations button.conversation').filter({ hasText: `#${id} ·` }).count()).toBe(1);
  await page.locator('#conversations button.conversation').filter({ hasText: `#${id} ·` }).focus();
  await page.keyboard.press('Enter');
  await page.locator('#thread .md table').first().waitFor({ timeout: ANSWER_MS });
  expect(await allAxeProblems(page), 'console at 375 px, an answer with a table').toEqual([]);
  await shop.context.close();

  await page.goto(`${world.bffOrigin}/inspector`);
  await page.getByText('live', { exact: true }).waitFor({ timeout: ANSWER_MS });
  await page.locator('#sent tr').first().waitFor({ timeout: ANSWER_MS });
  expect(await allAxeProblems(page), 'inspector').toEqual([]);

  await page.goto(`${world.bffOrigin}/`);
  await launcher(page).waitFor();
  expect(await allAxeProblems(page, ['region', 'page-has-heading-one']), 'shop').toEqual([]);
  await context.close();
});
