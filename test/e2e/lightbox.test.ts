/**
 * Card images open full size in a lightbox, by keyboard only, on a desktop and a
 * 375 px phone: a named modal dialog with focus on its close button; Escape closes it and not the
 * chat, and focus goes back to the image's button.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composer, launcher, openHostPage, panel, SCREENSHOTS, sendMessage, startWorld, type World } from './harness.js';

let world: World;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

// The name of the focused element inside the widget's shadow root.
const focused = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector('[data-parley]')?.shadowRoot;
    const el = root?.activeElement;
    return el ? el.getAttribute('aria-label') || el.textContent : null;
  });

describe.each([
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 375, height: 740 }],
])('lightbox on %s', (name, viewport) => {
  it('opens from the keyboard, Escape closes it alone, focus returns to the image', async () => {
    const { page, context, problems } = await openHostPage(world, { viewport });
    await launcher(page).click();
    await composer(page).waitFor();
    await sendMessage(page, 'carousel');
    const image = panel(page).getByRole('button', { name: /^Enlarge image: / }).first();
    await image.waitFor({ timeout: 20_000 });
    const label = (await image.getAttribute('aria-label'))!;
    await image.focus();
    await page.keyboard.press('Enter');
    const box = page.getByRole('dialog', { name: label.replace('Enlarge image: ', '') });
    await box.waitFor();
    await expect.poll(() => focused(page)).toBe('Close image');
    // Tab stays inside the modal dialog.
    await page.keyboard.press('Tab');
    expect(await box.isVisible()).toBe(true);
    await box.locator('img').evaluate((img: HTMLImageElement) => img.decode().catch(() => {}));
    // Pinch zoom is left to the browser; on a phone the image takes the screen's width, on screen.
    expect(await box.locator('img').evaluate((img) => getComputedStyle(img).touchAction)).toBe('pinch-zoom');
    const shown = (await box.locator('img').boundingBox())!;
    if (viewport.width <= 480) expect(shown.width).toBe(viewport.width);
    expect(shown.y).toBeGreaterThanOrEqual(0);
    expect(shown.y + shown.height).toBeLessThanOrEqual(viewport.height);
    await page.screenshot({ path: `${SCREENSHOTS}lightbox-${name}.png` });
    await page.keyboard.press('Escape');
    await expect.poll(() => box.count()).toBe(0);
    expect(await composer(page).isVisible()).toBe(true); // the chat stayed open
    await expect.poll(() => focused(page)).toBe(label);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("shows an image message's picture in the message, full width of its place, not only its caption", async () => {
    const { page, context, problems } = await openHostPage(world, { viewport });
    await launcher(page).click();
    await composer(page).waitFor();
    // The demo's trail map is an SVG with a viewBox and no width of its own: nothing to size it by but the message.
    await sendMessage(page, 'image');
    const picture = panel(page).locator('figure.image img');
    await picture.waitFor({ timeout: 20_000 });
    await picture.evaluate((img: HTMLImageElement) => img.decode().catch(() => {}));
    const { width, height } = (await picture.boundingBox())!;
    expect(width).toBeGreaterThanOrEqual(200);
    expect(height).toBeGreaterThan(100);
    expect(width).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: `${SCREENSHOTS}image-message-${name}.png` });
    expect(problems).toEqual([]);
    await context.close();
  });
});
