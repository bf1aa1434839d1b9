/**
 * Languages in the browser: the Arabic panel is right-to-left with times in the visitor's own
 * format; an English time in a right-to-left panel reads "2:28 AM", not "AM 2:28"; the German header
 * at 360 px is one line (title, More, close) and its menu works by keyboard alone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, launcher, openHostPage, panel, SCREENSHOTS, startWorld, type World } from './harness.js';

let world: World;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

/** Opens the chat, says hello and waits for a time label under the answer. */
async function chatted(page: Page) {
  await launcher(page).click();
  const box = panel(page).getByRole('textbox');
  await box.fill('Hello 42');
  await box.press('Enter');
  await panel(page).locator('.msg.bot').first().waitFor({ timeout: ANSWER_MS });
  // Messages within five minutes share one time label: the first one's.
  await panel(page).locator('time.time').first().waitFor();
}

/** The shop in a browser speaking `locale`, its script tag given `name="value"` before it runs, chatted in. */
async function shopWithTag(locale: string, name: string, value: string) {
  const context = await world.browser.newContext({ locale, reducedMotion: 'reduce' });
  await context.addInitScript(
    ([n, v]) => new MutationObserver(() => document.querySelector('script[src$="widget.js"]')?.setAttribute(n!, v!)).observe(document, { childList: true, subtree: true }),
    [name, value],
  );
  const tab = await context.newPage();
  await tab.goto(world.host.url);
  await chatted(tab);
  return { context, tab };
}

it('Arabic: the panel is right-to-left, times in the visitor’s own format', async () => {
  const phone = await openHostPage(world, { viewport: { width: 375, height: 740 }, locale: 'ar-EG' });
  const { page } = phone;
  // Before the chat loads, the loader's launcher names its language, so a screen reader reads its label in Arabic.
  expect(await launcher(page).getAttribute('lang')).toBe('ar');
  await chatted(page);
  expect(await panel(page).getByRole('textbox', { name: 'رسالة' }).count()).toBe(1);
  // So does the chat: its strings are Arabic on an English page.
  expect(await page.locator('[data-parley] .root').getAttribute('lang')).toBe('ar-EG');
  expect(await panel(page).getAttribute('aria-label')).toBeTruthy();
  expect(await panel(page).evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  expect(await panel(page).getByRole('button', { name: 'إغلاق المحادثة' }).count()).toBe(1);
  const times = await panel(page)
    .locator('time.time')
    .evaluateAll((els) => els.map((el) => [el.textContent, new Intl.DateTimeFormat(navigator.language, { timeStyle: 'short' }).format(new Date((el as HTMLTimeElement).dateTime))]));
  expect(times.length).toBeGreaterThan(0);
  for (const [shown, own] of times) expect(shown).toBe(own);
  // Arabic digits and the Arabic mark for the afternoon/morning, not "PM".
  expect(times[0]![0]).toMatch(/^[٠-٩]/);
  await page.screenshot({ path: `${SCREENSHOTS}rtl-ar-375.png` });
  expect(phone.problems).toEqual([]);
  await phone.context.close();
});

it('a page that names only the language (data-locale="ar") writes times in the browser\'s region of it: ar-EG, Arabic digits', async () => {
  const { context, tab } = await shopWithTag('ar-EG', 'data-locale', 'ar');
  expect(await tab.locator('[data-parley] .root').getAttribute('lang')).toBe('ar-EG');
  expect(await panel(tab).locator('time.time').first().textContent()).toMatch(/^[٠-٩]/);
  await context.close();
});

it('an English time in a right-to-left panel reads "2:28 AM": digits first, then AM/PM to their right', async () => {
  // The page's tag asks for right-to-left (data-dir="rtl") while the strings stay English.
  const { context, tab } = await shopWithTag('en-US', 'data-dir', 'rtl');
  expect(await panel(tab).evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  const order = await panel(tab)
    .locator('time.time')
    .first()
    .evaluate((el) => {
      const text = el.firstChild as Text;
      const at = (i: number) => {
        const r = document.createRange();
        r.setStart(text, i);
        r.setEnd(text, i + 1);
        return r.getBoundingClientRect().x;
      };
      const s = text.data;
      return { text: s, digit: at(s.search(/\d/)), meridiem: at(s.search(/[AP]M/)) };
    });
  expect(order.text).toMatch(/^\d{1,2}:\d{2}\s[AP]M$/);
  expect(order.meridiem).toBeGreaterThan(order.digit);
  await context.close();
});

it('German at 360 px: the header is one line, and its menu works by keyboard alone', async () => {
  const phone = await openHostPage(world, { viewport: { width: 360, height: 740 }, locale: 'de-DE' });
  const { page } = phone;
  await launcher(page).click();
  const box = panel(page).getByRole('textbox', { name: 'Nachricht' });
  await box.fill('Hallo');
  await box.press('Enter');
  await panel(page).getByRole('button', { name: 'Mit einem Menschen sprechen' }).waitFor({ timeout: ANSWER_MS });

  const header = await panel(page)
    .locator('.header')
    .evaluate((el) => {
      const h2 = el.querySelector('h2')!;
      const range = document.createRange();
      range.selectNodeContents(h2);
      const line = parseFloat(getComputedStyle(h2).lineHeight) || h2.getBoundingClientRect().height;
      return {
        titleHeight: h2.getBoundingClientRect().height,
        line,
        textWidth: range.getBoundingClientRect().width,
        titleWidth: h2.getBoundingClientRect().width,
        // Every control's vertical middle: one line means they share it.
        middles: [...el.children].map((c) => Math.round(c.getBoundingClientRect().y + c.getBoundingClientRect().height / 2)),
        height: el.getBoundingClientRect().height,
        right: el.getBoundingClientRect().right,
        lastRight: el.lastElementChild!.getBoundingClientRect().right,
      };
    });
  expect(header.titleHeight).toBeLessThanOrEqual(header.line + 1);
  expect(header.textWidth).toBeLessThanOrEqual(header.titleWidth);
  expect(new Set(header.middles).size).toBe(1);
  expect(header.height).toBeLessThanOrEqual(62); // 36 px buttons and 12 px padding above and below: one row
  expect(header.lastRight).toBeLessThanOrEqual(360);

  // Keyboard only: from the message box back to the menu button, open it, move, Escape returns focus.
  const more = panel(page).getByRole('button', { name: 'Mehr' });
  await more.focus();
  await page.keyboard.press('Enter');
  const menu = panel(page).getByRole('menu');
  await menu.waitFor();
  expect(await more.getAttribute('aria-expanded')).toBe('true');
  await expect.poll(() => page.evaluate(() => document.querySelector('[data-parley]')?.shadowRoot?.activeElement?.textContent)).toBe('Verlauf herunterladen');
  await page.keyboard.press('ArrowDown');
  await page.screenshot({ path: `${SCREENSHOTS}header-de-360.png`, clip: { x: 0, y: 0, width: 360, height: 260 } });
  await page.keyboard.press('Escape');
  expect(await menu.count()).toBe(0);
  expect(await panel(page).count()).toBe(1);
  expect(await more.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el)).toBe(true);
  expect(phone.problems).toEqual([]);
  await phone.context.close();
});
