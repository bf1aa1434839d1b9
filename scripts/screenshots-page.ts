/** Small steps the screenshot scripts share: a page at rest before its picture is taken. */
import type { Page } from 'playwright-core';
import { launcher } from '../test/e2e/harness.js';

/** Pictures (authors' too) loaded and the log at rest. */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.querySelector('[data-parley]')?.shadowRoot;
    return !!root && [...root.querySelectorAll('img')].every((img) => img.complete);
  });
  await page.waitForTimeout(300);
}

/** The answer that was being written has come: no typing dots left. */
export async function answered(page: Page): Promise<void> {
  await page.getByRole('dialog').locator('.typing').waitFor({ state: 'detached', timeout: 20_000 });
}

/** Clicks the launcher and waits for the panel. */
export async function openChat(page: Page): Promise<void> {
  await launcher(page).click();
  await page.getByRole('dialog').waitFor({ timeout: 20_000 });
}
