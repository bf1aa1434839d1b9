/**
 * The README's pictures of the people behind the chat (issue 20), for `npm run screenshots`: the
 * starter questions of an empty conversation, and operators with their names and pictures after
 * the line saying each joined. `prefix` names the files, e.g. `docs/screenshots/people`.
 */
import type { Browser, Page } from 'playwright-core';

const ANSWER_MS = 20_000;

/** Takes `{prefix}-starters.png` and `{prefix}-operator.png` from the demo at `base`, at `width` px. */
export async function peopleShots(browser: Browser, base: string, prefix: string, width = 1280): Promise<void> {
  const phone = width < 500;
  const context = await browser.newContext({ viewport: { width, height: phone ? 740 : 800 }, hasTouch: phone, isMobile: phone, reducedMotion: 'reduce' });
  try {
    const shop = await context.newPage();
    await shop.goto(base + '/');
    // The loader's launcher until the chat has loaded, then the chat's own.
    await shop.locator('[data-parley] button.launcher, [data-parley-loader] button.launcher').last().click();
    const chat = shop.getByRole('dialog');
    const starters = chat.getByRole('group', { name: 'Suggested questions' });
    await starters.waitFor();
    await shop.screenshot({ path: `${prefix}-starters.png` });

    // One click asks; then the visitor asks for a person and two operators answer from the console.
    await starters.getByRole('button', { name: 'Where is my order?' }).click();
    await chat.getByText(/NO-48213/).first().waitFor({ timeout: ANSWER_MS });
    await chat.getByRole('button', { name: 'Talk to a person' }).click();
    await chat.getByText('A person from our team will take it from here.').waitFor({ timeout: ANSWER_MS });
    const console = await context.newPage();
    await console.goto(base + '/console');
    await console.locator('#conversations button.conversation').first().click();
    const reply = async (username: string, text: string) => {
      await console.locator('#op-name').selectOption(username);
      await console.locator('#op-text').fill(text);
      await console.locator('#reply button[type=submit]').click();
      await chat.getByText(text).waitFor({ timeout: ANSWER_MS });
    };
    await reply('mara', "Hi, I'm Mara from the Nimbus team. I can see NO-48213 here.");
    await reply('mara', "I'll ask the warehouse whether it can come sooner.");
    await reply('theo', "Theo from the warehouse: it's on the morning van, so Thursday before noon.");
    await shop.bringToFront();
    await settle(shop);
    await shop.screenshot({ path: `${prefix}-operator.png` });
  } finally {
    await context.close();
  }
}

/** Pictures loaded and the log scrolled to its end. */
async function settle(page: Page) {
  await page.waitForFunction(() => {
    const root = document.querySelector('[data-parley]')?.shadowRoot;
    return !!root && [...root.querySelectorAll('img')].every((img) => img.complete);
  });
  await page.waitForTimeout(300);
}
