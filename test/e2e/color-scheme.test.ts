/**
 * Colour scheme `auto` follows the host page, then the OS: the page's declared `color-scheme`,
 * else its background, else (a page offering both schemes and painting none) the OS. A page that
 * switches is followed the next time the panel opens.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launcher, openHostPage, panel, SCREENSHOTS, startHostPage, startWorld, type PageOptions, type World } from './harness.js';

let world: World;
const LIGHT = 'rgb(255, 255, 255)';
const DARK = 'rgb(23, 25, 30)';

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

/** The panel's background colour, opening it first. */
async function panelBackground(page: Page): Promise<string> {
  await launcher(page).click();
  return panel(page).evaluate((el) => getComputedStyle(el).backgroundColor);
}

const closePanel = (page: Page) => panel(page).press('Escape');

/**
 * The host page with `style` on its <html> from the start, before the widget's script runs (the
 * strict CSP forbids inline styles in the markup, not setting them from a script).
 */
async function openStyledPage(style: Record<string, string>, options: PageOptions) {
  const opened = await openHostPage(world, options);
  await opened.page.addInitScript((declarations) => {
    new MutationObserver((_, observer) => {
      if (!document.documentElement) return;
      Object.assign(document.documentElement.style, declarations);
      observer.disconnect();
    }).observe(document, { childList: true });
  }, style);
  await opened.page.reload();
  return opened;
}

it('a light shop page on a dark OS gets a light panel', async () => {
  // The host page declares no scheme and paints no background: the browser shows it white.
  const opened = await openHostPage(world, { colorScheme: 'dark' });
  expect(await panelBackground(opened.page)).toBe(LIGHT);
  await opened.page.screenshot({ path: `${SCREENSHOTS}scheme-light-page-dark-os.png` });
  expect(opened.problems).toEqual([]);
  await opened.context.close();
});

it('a dark shop page on a light OS gets a dark panel, and a light one after the page switches', async () => {
  const opened = await openStyledPage({ background: '#15171c', color: '#eee' }, { colorScheme: 'light' });
  const { page } = opened;
  expect(await panelBackground(page)).toBe(DARK);
  await page.screenshot({ path: `${SCREENSHOTS}scheme-dark-page-light-os.png` });
  // The body's background counts before the root's, also in colour syntaxes other than rgb().
  await closePanel(page);
  await page.evaluate(() => (document.body.style.background = 'oklch(0.97 0.01 90)'));
  expect(await panelBackground(page)).toBe(LIGHT);
  expect(opened.problems).toEqual([]);
  await opened.context.close();
});

it("a page's declared color-scheme wins over the OS", async () => {
  const opened = await openStyledPage({ colorScheme: 'dark' }, { colorScheme: 'light' });
  expect(await panelBackground(opened.page)).toBe(DARK);
  expect(opened.problems).toEqual([]);
  await opened.context.close();
});

it('a page that offers both schemes and paints no background follows the OS, also after it changes', async () => {
  const host = await startHostPage(world.bffOrigin, '', '<meta name="color-scheme" content="light dark">');
  const opened = await openHostPage(world, { url: host.url, colorScheme: 'dark' });
  const { page } = opened;
  expect(await panelBackground(page)).toBe(DARK);
  await closePanel(page);
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await panelBackground(page)).toBe(LIGHT);
  expect(opened.problems).toEqual([]);
  await opened.context.close();
  await host.close();
});
