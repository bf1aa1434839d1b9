/**
 * File uploads in headless Chromium against the demo BFF, which runs with uploads on
 * (`UPLOAD_FLOW=upload`): the attach button opens the browser's file picker, the upload shows as
 * the user's message, and the flow's result arrives on the stream. Limits are checked in the
 * component tests.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launcher, openHostPage, panel, sendMessage, SCREENSHOTS, startWorld, type OpenedPage, type World } from './harness.js';

let world: World;
let tab: OpenedPage;
const ANSWER_MS = 20_000;
const log = (page: Page) => panel(page).getByRole('log');
const userBubbles = (page: Page) => log(page).locator('.msg.user .bubble');

beforeAll(async () => {
  world = await startWorld();
  tab = await openHostPage(world);
  await launcher(tab.page).click();
  await panel(tab.page).waitFor();
});
afterAll(async () => {
  await world?.close();
});

it('starts a conversation with a file from the picker and shows the flow result', async () => {
  const { page } = tab;
  const attach = panel(page).getByRole('button', { name: 'Attach files' });
  await attach.waitFor();
  // A real click on the button must open the browser's picker (the input itself is hidden).
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), attach.click()]);
  expect(chooser.isMultiple()).toBe(true);
  await chooser.setFiles({ name: 'receipt.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });

  await expect.poll(() => userBubbles(page).allTextContents()).toEqual(['📎 receipt.txt']);
  await log(page).getByText(/Received 1 file: receipt\.txt \(5 B, md5 5d41402a…\)/).waitFor({ timeout: ANSWER_MS });
  // Reconciled with the stream's copy: still one user message, no progress bar left.
  expect(await userBubbles(page).count()).toBe(1);
  expect(await log(page).getByRole('progressbar').count()).toBe(0);
});

it('sends the composer text with files in a running conversation (hidden input, set directly)', async () => {
  const { page } = tab;
  await sendMessage(page, 'help');
  await log(page).getByText("Here's what I can do in this demo:").waitFor({ timeout: ANSWER_MS });
  await panel(page).getByRole('textbox', { name: 'Message' }).fill('two photos');
  // Playwright's CSS locators pierce the open shadow root.
  await page.locator('[data-parley] input[type=file]').setInputFiles([
    { name: 'a.png', mimeType: 'image/png', buffer: Buffer.alloc(2048, 1) },
    { name: 'b.png', mimeType: 'image/png', buffer: Buffer.alloc(1024, 2) },
  ]);
  await expect.poll(() => userBubbles(page).allTextContents()).toEqual(['📎 receipt.txt', 'help', 'two photos\n📎 a.png, b.png']);
  await log(page).getByText(/Received 2 files: a\.png \(2\.0 KB.*b\.png \(1\.0 KB/).waitFor({ timeout: ANSWER_MS });
  expect(await panel(page).getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');
  expect(await userBubbles(page).count()).toBe(3);
  await page.screenshot({ path: `${SCREENSHOTS}desktop-upload.png` });
  expect(tab.problems).toEqual([]);
});
