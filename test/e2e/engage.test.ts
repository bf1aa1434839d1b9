/**
 * Engagement in the browser (docs/api.md "Engagement"), in model mode against the simulated
 * gateway: unread count in the page title, the proactive bubble, votes across a reload and tabs,
 * Stop, and the transcript after the conversation ended. axe checks each new control.
 */
import { readFileSync } from 'node:fs';
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { ANSWER_MS, idle, launcher, openHostPage, panel, SCREENSHOTS, sendMessage, startWorld, type OpenedPage, type World } from './harness.js';

let world: World;
const PHONE = { width: 375, height: 740 };
const log = (page: Page) => panel(page).getByRole('log');
const answers = (page: Page) => log(page).locator('.msg.bot');

/** The simulated gateway's controls (demo only). */
async function gateway(method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${world.bff.url}/sim/__gateway${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return res.json();
}

/** The session the widget stored for this BFF. */
const session = (page: Page) => page.evaluate((key) => JSON.parse(localStorage.getItem(key) || '{}') as { token?: string }, `parley:${world.bffOrigin}`);

/** Serious and critical axe violations on the page (the widget's shadow root included). */
async function axeProblems(page: Page) {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Asks and waits for the complete answer (its vote buttons appear once it has stopped streaming). */
async function ask(page: Page, text: string) {
  const before = await answers(page).count();
  await sendMessage(page, text);
  await expect.poll(() => answers(page).count(), { timeout: ANSWER_MS }).toBe(before + 1);
  await answers(page).last().getByRole('group', { name: 'Rate this answer' }).waitFor({ timeout: ANSWER_MS });
}

beforeAll(async () => {
  world = await startWorld({ CHAT_MODE: 'model' });
});
afterAll(async () => {
  await world?.close();
});
beforeEach(async () => {
  await gateway('POST', '/pace', { chunkDelayMs: 25 });
});

it('prefixes the title with the unread count while the chat is closed or the tab hidden, and restores it once read', async () => {
  const { page, context, problems } = await openHostPage(world);
  await launcher(page).click();
  await ask(page, 'Hello');
  expect(await page.title()).toBe('Host page');

  // Closed before the answer came.
  await sendMessage(page, 'What tents do you have?');
  await page.keyboard.press('Escape');
  await expect.poll(() => page.title(), { timeout: ANSWER_MS }).toBe('(1) Host page');
  await launcher(page).click();
  await expect.poll(() => page.title()).toBe('Host page');

  // Headless Chromium never hides a tab: the page script stands in for the browser's visibility.
  await page.evaluate(() => {
    let hidden = false;
    Object.defineProperty(document, 'hidden', { get: () => hidden });
    Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
    (window as unknown as { hide(on: boolean): void }).hide = (on) => {
      hidden = on;
      document.dispatchEvent(new Event('visibilitychange'));
    };
  });
  await sendMessage(page, 'And sleeping bags?');
  await page.evaluate(() => (window as unknown as { hide(on: boolean): void }).hide(true));
  // The chat is open, but nobody sees it.
  await expect.poll(() => page.title(), { timeout: ANSWER_MS }).toBe('(1) Host page');
  await page.evaluate(() => (window as unknown as { hide(on: boolean): void }).hide(false));
  await expect.poll(() => page.title()).toBe('Host page');
  expect(problems).toEqual([]);
  await context.close();
});

it('Parley("show") puts a bubble beside the launcher that opens into the chat, and goes to the model as context', async () => {
  for (const viewport of [undefined, PHONE]) {
    const { page, context, problems } = await openHostPage(world, viewport && { viewport });
    await launcher(page).waitFor();
    await page.evaluate(() => (window as unknown as { Parley(m: string, t: string): void }).Parley('show', 'Need help choosing a tent?'));
    const bubble = page.getByRole('button', { name: 'Need help choosing a tent?' });
    await bubble.waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}${viewport ? 'phone' : 'desktop'}-proactive.png` });
    expect(await axeProblems(page)).toEqual([]);
    if (viewport) {
      await page.getByRole('button', { name: 'Dismiss' }).click();
      await expect.poll(() => bubble.count()).toBe(0);
      await context.close();
      continue;
    }
    await bubble.click();
    await expect.poll(() => log(page).locator('.msg.bot .bubble').first().textContent()).toBe('Need help choosing a tent?');
    await gateway('DELETE', '/requests');
    await ask(page, 'Yes, for two people');
    const { requests } = (await gateway('GET', '/requests')) as { requests: Array<{ path: string; messages?: Array<{ role: string; content: string }> }> };
    const call = requests.find((r) => r.path === '/chat/completions');
    // The page's text reaches the model fenced in a user-role message, never in the system message.
    expect(call?.messages?.find((m) => m.role === 'user' && m.content.startsWith('<page_context>'))?.content).toContain('Need help choosing a tent?');
    expect(call?.messages?.filter((m) => m.role === 'system').map((m) => m.content).join()).not.toContain('tent');
    expect(problems).toEqual([]);
    await context.close();
  }
});

it('a vote survives a reload and shows in a second tab, live', async () => {
  const first = await openHostPage(world);
  const { page, context } = first;
  await launcher(page).click();
  await ask(page, 'Do you ship to Norway?');
  const votes = (p: Page) => answers(p).last().getByRole('group', { name: 'Rate this answer' });
  await votes(page).getByRole('button', { name: 'Helpful', exact: true }).click();
  await expect.poll(() => votes(page).getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed')).toBe('true');

  const other: OpenedPage = { context, page: await context.newPage(), problems: [] };
  await other.page.goto(world.host.url);
  await launcher(other.page).click();
  await expect.poll(() => votes(other.page).getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed'), { timeout: ANSWER_MS }).toBe('true');

  // A thumbs down asks what was missing; the other tab follows from the stream.
  await votes(page).getByRole('button', { name: 'Not helpful' }).click();
  const comment = panel(page).getByRole('textbox', { name: 'What was missing?' });
  await comment.fill('Delivery times');
  await page.screenshot({ path: `${SCREENSHOTS}desktop-feedback.png` });
  expect(await axeProblems(page)).toEqual([]);
  await comment.press('Enter');
  await expect.poll(() => votes(other.page).getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed'), { timeout: ANSWER_MS }).toBe('true');

  await page.reload();
  await expect.poll(() => votes(page).getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed'), { timeout: ANSWER_MS }).toBe('true');
  expect(await votes(page).getByRole('button', { name: 'Helpful', exact: true }).getAttribute('aria-pressed')).toBe('false');
  expect(first.problems).toEqual([]);
  await context.close();
});

it('Stop pressed from the keyboard goes at once, leaves focus in the composer, and the answer says Stopped', async () => {
  const { page, context, problems } = await openHostPage(world);
  await launcher(page).click();
  await gateway('POST', '/pace', { chunkDelayMs: 150 });
  await sendMessage(page, 'Tell me all about sleeping bags');
  const stop = panel(page).getByRole('button', { name: 'Stop' });
  await stop.waitFor({ timeout: ANSWER_MS });
  await stop.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => stop.count()).toBe(0);
  const inWidget = await page.evaluate(() => document.querySelector('[data-parley]')!.shadowRoot!.activeElement?.getAttribute('aria-label'));
  expect(inWidget).toBe('Message');
  await answers(page).last().getByText('Stopped').waitFor({ timeout: ANSWER_MS });
  expect(problems).toEqual([]);
  await context.close();
});

it('Stop ends a streaming reply within 200 ms and closes the gateway stream', async () => {
  const { page, context, problems } = await openHostPage(world);
  await launcher(page).click();
  await gateway('POST', '/pace', { chunkDelayMs: 150 });
  await gateway('DELETE', '/requests');
  await sendMessage(page, 'Tell me everything about tents');
  const stop = panel(page).getByRole('button', { name: 'Stop' });
  await stop.waitFor({ timeout: ANSWER_MS });
  // A pill above the text box, not a column: the panel is a flex column.
  expect((await stop.boundingBox())!.height).toBeLessThan(48);
  await page.screenshot({ path: `${SCREENSHOTS}desktop-stop.png` });
  expect(await axeProblems(page)).toEqual([]);

  // Timed inside the page: from the click until the reply is no longer streaming (Stop gone).
  const elapsed = await page.evaluate(async () => {
    const root = document.querySelector('[data-parley]')!.shadowRoot!;
    const button = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Stop')!;
    const start = performance.now();
    button.click();
    while (root.querySelector('.panel > .pill')) await new Promise((ok) => requestAnimationFrame(ok));
    return performance.now() - start;
  });
  expect(elapsed).toBeLessThan(200);
  // Words already on their way when Stop was pressed may still land (engage.ts, stop): once the
  // gateway's stream is closed and the page idle, they have; then nothing more.
  const closed = async () => ((await gateway('GET', '/requests')) as { requests: Array<{ stream?: boolean; closedByClient?: boolean }> }).requests.filter((r) => r.stream).map((r) => r.closedByClient);
  await expect.poll(closed, { timeout: 5000 }).toEqual([true]);
  await idle(page);
  const stopped = await answers(page).last().locator('.bubble').textContent();
  // Waiting for nothing to happen, which no state shows: four more chunks' time (150 ms each) without a word.
  await page.waitForTimeout(600);
  expect(await answers(page).last().locator('.bubble').textContent()).toBe(stopped);
  expect(await closed()).toEqual([true]);

  // The stopped answer can be rated like any other, and the conversation goes on.
  await answers(page).last().getByRole('group', { name: 'Rate this answer' }).waitFor();
  await gateway('POST', '/pace', { chunkDelayMs: 25 });
  await ask(page, 'Thanks');
  expect(problems).toEqual([]);
  await context.close();
});

it('after the conversation ends, the transcript has every message, and a new conversation can start', async () => {
  const { page, context, problems } = await openHostPage(world, { viewport: PHONE });
  await launcher(page).click();
  await ask(page, 'First question');
  await ask(page, 'Second question');
  const texts = await log(page).locator('.msg .bubble').allTextContents();
  const res = await fetch(`${world.bff.url}/api/archive`, { method: 'POST', headers: { authorization: `Bearer ${(await session(page)).token}` } });
  expect(res.status).toBe(202);
  await panel(page).getByText('This conversation has ended.').waitFor({ timeout: ANSWER_MS });
  await page.screenshot({ path: `${SCREENSHOTS}phone-ended.png` });
  expect(await axeProblems(page)).toEqual([]);

  const [download] = await Promise.all([page.waitForEvent('download'), panel(page).getByRole('button', { name: 'Download transcript' }).click()]);
  // The site's title and the date in the name; the greeting, every message and who said it inside.
  expect(download.suggestedFilename()).toMatch(/^Nimbus Outdoor \d{4}-\d{2}-\d{2}\.txt$/);
  const transcript = readFileSync((await download.path())!, 'utf8');
  for (const text of texts) expect(transcript).toContain(text.trim());
  expect(transcript.match(/^\[.+\] You: /gm)).toHaveLength(2);
  expect(transcript.match(/^\[.+\] Juniper: /gm)).toHaveLength(2); // the two answers (the greeting opens the file, without a time)

  await panel(page).getByRole('button', { name: 'Start a new conversation' }).click();
  expect(await log(page).locator('.msg.user').count()).toBe(0);
  expect(problems).toEqual([]);
  await context.close();
});
