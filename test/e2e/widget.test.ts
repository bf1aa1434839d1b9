/**
 * The widget in headless Chromium against the real BFF (demo mode, scripted agent), embedded in
 * a page on another origin whose CSP allows nothing inline and nothing evaluated.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_MS, composer, launcher, openHostPage, panel, SCREENSHOTS, sendMessage, startHostPage, startWorld, type OpenedPage, type World } from './harness.js';

let world: World;
let main: OpenedPage;

const log = (page: Page) => panel(page).getByRole('log');
const userBubbles = (page: Page) => log(page).locator('.msg.user .bubble');

beforeAll(async () => {
  world = await startWorld();
  main = await openHostPage(world);
});

afterAll(async () => {
  await world?.close();
});

describe('desktop', () => {
  it('opens from the launcher, with focus in the composer', async () => {
    const { page } = main;
    await launcher(page).click();
    await expect.poll(() => panel(page).isVisible()).toBe(true);
    expect(await panel(page).getAttribute('aria-label')).toBeTruthy();
    expect(await composer(page).evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
  });

  it('sends a message and shows the answer', async () => {
    const { page } = main;
    await sendMessage(page, 'help');
    await expect.poll(() => userBubbles(page).allTextContents()).toEqual(['help']);
    await log(page).getByText("Here's what I can do in this demo:").waitFor({ timeout: ANSWER_MS });
    // Markdown became elements, not text.
    expect(await log(page).locator('li strong', { hasText: 'Orders' }).count()).toBe(1);
    expect(await composer(page).inputValue()).toBe('');
  });

  it('a badge postback button sends its value as the user message, which gets an answer', async () => {
    const { page } = main;
    await sendMessage(page, 'buttons');
    const button = log(page).locator('.buttons button').first();
    await button.waitFor({ timeout: ANSWER_MS });
    // The link button of the same badge opens in a new tab, without opener.
    const link = log(page).locator('.buttons a').first();
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');

    await button.click();
    await expect.poll(() => userBubbles(page).allTextContents()).toEqual(['help', 'buttons', 'Where is my order?']);
    await log(page).getByText(/NO-48213/).waitFor({ timeout: ANSWER_MS });
  });

  it('shows a carousel that scrolls with its next button', async () => {
    const { page } = main;
    await sendMessage(page, 'carousel');
    const scroller = log(page).locator('.track').last();
    await scroller.waitFor({ timeout: ANSWER_MS });
    await log(page).locator('.card img').first().waitFor();
    await log(page).getByRole('button', { name: 'Next' }).last().click();
    await expect.poll(() => scroller.evaluate((el) => el.scrollLeft)).toBeGreaterThan(100);
    await page.screenshot({ path: `${SCREENSHOTS}desktop-open.png` });
  });

  it('has no serious or critical accessibility violation with the panel open', async () => {
    const { page } = main;
    // page.evaluate runs over CDP, which the page's CSP does not govern; the widget's own code is untouched.
    await page.evaluate(axe.source);
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
    });
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad).toEqual([]);
  });

  it('keyboard: Escape closes and focus returns to the launcher; Enter on it opens again', async () => {
    const { page } = main;
    await composer(page).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => panel(page).count()).toBe(0);
    expect(await launcher(page).evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => panel(page).isVisible()).toBe(true);
  });

  it('restores the conversation after a reload and keeps talking', async () => {
    const { page } = main;
    await page.reload();
    // The panel was open in this tab, so it opens again.
    await panel(page).waitFor();
    await expect.poll(() => userBubbles(page).allTextContents(), { timeout: ANSWER_MS }).toEqual(expect.arrayContaining(['help', 'buttons', 'Where is my order?']));
    await log(page).getByText(/NO-48213/).waitFor();
    await sendMessage(page, 'list');
    await log(page).locator('ul.list').last().waitFor({ timeout: ANSWER_MS });
  });

  it('shows the conversation live in a second tab', async () => {
    const second = await main.context.newPage();
    await second.goto(world.host.url);
    await launcher(second).click();
    await expect.poll(() => userBubbles(second).allTextContents(), { timeout: ANSWER_MS }).toEqual(expect.arrayContaining(['help']));
    await sendMessage(main.page, 'shipping');
    await log(second).getByText(/free over €75/).waitFor({ timeout: ANSWER_MS });
    await second.close();
  });

  it('tabs share one event stream; when its tab closes, another takes it over and nothing is missed', async () => {
    const streamsOpen = async () => Number(/^parley_streams_open (\d+)$/m.exec(await (await fetch(`${world.bff.url}/metrics`)).text())?.[1]);
    const before = await streamsOpen();
    const context = await world.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const [a, b, c] = [await context.newPage(), await context.newPage(), await context.newPage()];
    await a.goto(world.host.url);
    await launcher(a).click();
    await sendMessage(a, 'help');
    await log(a).getByText("Here's what I can do in this demo:").waitFor({ timeout: ANSWER_MS });
    for (const tab of [b, c]) {
      await tab.goto(world.host.url);
      await launcher(tab).click();
      await log(tab).getByText("Here's what I can do in this demo:").waitFor({ timeout: ANSWER_MS });
    }
    expect(await streamsOpen()).toBe(before + 1);

    await a.close(); // the tab holding the stream
    await expect.poll(streamsOpen, { timeout: 10_000 }).toBe(before + 1);
    await sendMessage(b, 'shipping');
    for (const tab of [b, c]) await log(tab).getByText(/free over €75/).waitFor({ timeout: ANSWER_MS });
    await context.close();
  });

  it('reported no CSP violation and no console error', () => {
    expect(main.problems).toEqual([]);
  });
});

describe('phone', () => {
  it('covers the whole 375 px viewport, with 16 px text input', async () => {
    const phone = await openHostPage(world, { viewport: { width: 375, height: 740 } });
    const { page } = phone;
    await launcher(page).click();
    await panel(page).waitFor();
    const box = await panel(page).boundingBox();
    expect(box).toEqual({ x: 0, y: 0, width: 375, height: 740 });
    expect(await composer(page).evaluate((el) => getComputedStyle(el).fontSize)).toBe('16px');
    await sendMessage(page, 'card');
    await log(page).locator('.card').waitFor({ timeout: ANSWER_MS });
    await log(page).locator('.card img').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}phone-open.png` });
    expect(phone.problems).toEqual([]);
    await phone.context.close();
  });
});

describe('inline and dark', () => {
  it('renders inside <parley-chat> as a region, without a launcher, and chats', async () => {
    const host = await startHostPage(world.bffOrigin, '<h2>Support</h2><parley-chat></parley-chat>');
    const inline = await openHostPage(world, { url: host.url });
    const { page } = inline;
    const region = page.locator('parley-chat').getByRole('region');
    await region.waitFor();
    // Labelled with the BFF's configured title once the settings arrived.
    const { title } = (await (await fetch(`${world.bff.url}/api/config`)).json()) as { title: string };
    await expect.poll(() => region.getAttribute('aria-label')).toBe(title);
    expect(await page.locator('[data-parley]').count()).toBe(0);
    expect((await region.boundingBox())!.height).toBe(560);
    await region.getByRole('textbox', { name: 'Message' }).fill('quick');
    await region.getByRole('textbox', { name: 'Message' }).press('Enter');
    const reply = region.locator('.replies button').first();
    await reply.waitFor({ timeout: ANSWER_MS });
    await reply.click();
    // A used quick reply is gone: its message is no longer the last one.
    await expect.poll(() => region.locator('.replies').count(), { timeout: ANSWER_MS }).toBe(0);
    await page.screenshot({ path: `${SCREENSHOTS}desktop-inline.png` });
    expect(inline.problems).toEqual([]);
    await inline.context.close();
    await host.close();
  });

  it('follows a dark color scheme (on a page that offers both, see color-scheme.test.ts)', async () => {
    const host = await startHostPage(world.bffOrigin, '', '<meta name="color-scheme" content="light dark">');
    const dark = await openHostPage(world, { url: host.url, colorScheme: 'dark' });
    const { page } = dark;
    await launcher(page).click();
    await panel(page).waitFor();
    await sendMessage(page, 'file');
    await log(page).locator('a.file').waitFor({ timeout: ANSWER_MS });
    const bg = await panel(page).evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(bg).toBe('rgb(23, 25, 30)');
    await page.screenshot({ path: `${SCREENSHOTS}desktop-dark.png` });
    expect(dark.problems).toEqual([]);
    await dark.context.close();
    await host.close();
  });

  it('right-to-left (locale ar): each message and the text box read in their own direction', async () => {
    const arabic = await openHostPage(world, { locale: 'ar' });
    const { page } = arabic;
    await launcher(page).click();
    await panel(page).waitFor();
    const direction = (el: Element) => getComputedStyle(el).direction;
    expect(await panel(page).evaluate(direction)).toBe('rtl');
    // The Arabic locale's box, empty, reads right to left like its placeholder; each text then sets its own direction.
    const box = panel(page).getByRole('textbox', { name: 'رسالة' });
    expect(await box.evaluate(direction)).toBe('rtl');
    await box.fill('Hello');
    expect(await box.evaluate(direction)).toBe('ltr');
    await box.fill('مرحبا');
    expect(await box.evaluate(direction)).toBe('rtl');
    // "help" gets the agent's English list of keywords, which stays English in every language.
    for (const text of ['Need help here.', 'مرحبا بكم']) {
      await box.fill(text);
      await box.press('Enter');
    }
    await expect.poll(() => userBubbles(page).count()).toBe(2);
    expect(await userBubbles(page).evaluateAll((els) => els.map((el) => getComputedStyle(el).direction))).toEqual(['ltr', 'rtl']);
    // The agent's English answer too (the Arabic greetings around it, with the shop's Latin names, read right to left).
    const answer = log(page).locator('.msg.bot .bubble').filter({ hasText: /[A-Za-z]/, hasNotText: /[\u0600-\u06FF]/ }).last();
    await answer.waitFor({ timeout: ANSWER_MS });
    expect(await answer.evaluate(direction)).toBe('ltr');
    await page.screenshot({ path: `${SCREENSHOTS}desktop-rtl.png` });
    expect(arabic.problems).toEqual([]);
    await arabic.context.close();
  });

  it("speaks the browser's language (German, fetched from the BFF under the strict CSP)", async () => {
    const german = await openHostPage(world, { locale: 'de-DE' });
    const { page } = german;
    await expect.poll(() => launcher(page).getAttribute('aria-label')).toBe('Chat öffnen'); // the loader's, then the chat's
    await launcher(page).click();
    await panel(page).getByRole('textbox', { name: 'Nachricht' }).waitFor();
    expect(await panel(page).getByRole('button', { name: 'Senden' }).count()).toBe(1);
    // A German starter gets a German answer: the widget sends its language, the BFF gives it to the agent (LOCALE_VARIABLE).
    await panel(page).getByRole('button', { name: 'Wo ist meine Bestellung?' }).click();
    await log(page).getByText(/^Die Bestellung NO-48213 hat gestern unser Lager/).waitFor({ timeout: ANSWER_MS });
    expect(german.problems).toEqual([]);
    await german.context.close();
  });
});
