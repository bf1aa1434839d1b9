/**
 * File uploads in headless Chromium against the demo BFF, which runs with uploads on
 * (`UPLOAD_FLOW=upload`), on the strict-CSP host page: the attach button opens the browser's file
 * picker, chosen files wait as chips (images with a thumbnail) until Send, each chip shows its
 * upload's progress, the upload shows as the user's message, and the flow's result arrives on
 * the stream. Limits are checked in the component tests.
 */
import { crc32, deflateSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ANSWER_MS, composer, launcher, openHostPage, panel, SCREENSHOTS, sendMessage, startWorld, type OpenedPage, type World } from './harness.js';

let world: World;
let tab: OpenedPage;
const log = (page: Page) => panel(page).getByRole('log');
/** The visitor's messages: their words, then the names of the files attached under them in brackets. */
const userBubbles = (page: Page) => ({
  count: () => log(page).locator('.msg.user').count(),
  allTextContents: () =>
    log(page)
      .locator('.msg.user')
      .evaluateAll((els) =>
        els.map((el) => {
          const files = [...el.querySelectorAll('.attachments li')].map((li) => li.textContent);
          return (el.querySelector('.bubble')?.textContent ?? '') + (files.length ? `[${files.join(', ')}]` : '');
        }),
      ),
});
const send = (page: Page) => panel(page).getByRole('button', { name: 'Send' }).click();

/**
 * A real PNG of `size`×`size` pixels in one colour, each pixel's last channel varied by `noise`
 * (random bytes do not compress, which makes the file as large as the test needs).
 */
/** `image` followed by zero bytes up to `size` (readers stop at the PNG's end). */
const padded = (image: Buffer, size: number): Buffer => Buffer.concat([image, Buffer.alloc(size - image.length)]);

function png(size: number, [r, g, b]: number[], noise = 0): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits per channel, RGB
  const rows = Buffer.alloc(size * (1 + 3 * size));
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) rows.set([r!, g!, Math.max(0, b! - Math.floor(Math.random() * noise))], y * (1 + 3 * size) + 1 + 3 * x);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

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
  await panel(page).getByRole('button', { name: 'Remove receipt.txt' }).waitFor();
  await send(page);

  await expect.poll(() => userBubbles(page).allTextContents()).toEqual(['[receipt.txt]']);
  await log(page).getByText('Received 1 file: receipt.txt (5 B).').waitFor({ timeout: ANSWER_MS });
  expect(await log(page).textContent()).not.toMatch(/md5/);
  // Reconciled with the stream's copy: still one user message, no chip or progress bar left.
  expect(await userBubbles(page).count()).toBe(1);
  expect(await panel(page).getByRole('progressbar').count()).toBe(0);
  expect(await panel(page).getByRole('list', { name: 'Files to send' }).count()).toBe(0);
});

it('sends the composer text with files in a running conversation (hidden input, set directly)', async () => {
  const { page } = tab;
  await sendMessage(page, 'help');
  await log(page).getByText("Here's what I can do in this demo:").waitFor({ timeout: ANSWER_MS });
  await panel(page).getByRole('textbox', { name: 'Message' }).fill('two photos');
  // Playwright's CSS locators pierce the open shadow root.
  await page.locator('[data-parley] input[type=file]').setInputFiles([
    // Real PNGs (the BFF checks a file's first bytes against its type), padded to round sizes.
    { name: 'a.png', mimeType: 'image/png', buffer: padded(png(8, [200, 30, 30]), 2048) },
    { name: 'b.png', mimeType: 'image/png', buffer: padded(png(8, [30, 30, 200]), 1024) },
  ]);
  await send(page);
  await expect.poll(() => userBubbles(page).allTextContents()).toEqual(['[receipt.txt]', 'help', 'two photos[a.png, b.png]']);
  await log(page).getByText(/Received 2 files: a\.png \(2\.0 KB.*b\.png \(1\.0 KB/).waitFor({ timeout: ANSWER_MS });
  expect(await panel(page).getByRole('textbox', { name: 'Message' }).inputValue()).toBe('');
  expect(await userBubbles(page).count()).toBe(3);
  await page.screenshot({ path: `${SCREENSHOTS}desktop-upload.png` });
  expect(tab.problems).toEqual([]);
});

it('at 375 px: two images as chips with thumbnails, one removed by keyboard, the other sent with its own progress', async () => {
  const phone = await openHostPage(world, { viewport: { width: 375, height: 740 } });
  const { page, context } = phone;
  await launcher(page).click();
  await composer(page).waitFor();
  await panel(page).getByRole('button', { name: 'Attach files' }).waitFor();
  // About 64 KB that hardly compresses (one noisy channel): a second's upload at the speed set below.
  const trail = png(256, [214, 40, 160], 256);
  await page.locator('[data-parley] input[type=file]').setInputFiles([
    { name: 'trail-map.png', mimeType: 'image/png', buffer: trail },
    { name: 'blue-tent.png', mimeType: 'image/png', buffer: png(48, [30, 90, 220]) },
  ]);
  const chips = panel(page).getByRole('list', { name: 'Files to send' }).getByRole('listitem');
  await expect.poll(() => chips.count()).toBe(2);
  expect(await chips.locator('.name').allTextContents()).toEqual(['trail-map.png', 'blue-tent.png']);
  expect(await chips.locator('.size').allTextContents()).toEqual([`${Math.round(trail.length / 102.4) / 10} kB`, expect.stringMatching(/^\d+ bytes$/)]);
  // Each thumbnail is drawn (the strict page CSP allows no blob: images): its middle is the image's colour.
  const middle = (i: number) =>
    chips.nth(i).locator('canvas').evaluate((c: HTMLCanvasElement) => (c.hidden ? [] : Array.from(c.getContext('2d')!.getImageData(32, 32, 1, 1).data.slice(0, 2))));
  await expect.poll(() => middle(0)).toEqual([214, 40]);
  await expect.poll(() => middle(1)).toEqual([30, 90]);
  await page.screenshot({ path: `${SCREENSHOTS}phone-upload-chips.png` });

  // Keyboard only: from the message box back past the attach button to the last chip's ×.
  await composer(page).fill('Is this the right trail?');
  await composer(page).focus();
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  const focusedName = () => page.evaluate(() => document.querySelector('[data-parley]')!.shadowRoot!.activeElement?.getAttribute('aria-label'));
  expect(await focusedName()).toBe('Remove blue-tent.png');
  await page.keyboard.press('Enter');
  await expect.poll(() => chips.count()).toBe(1);
  // Focus stays in the panel, on the chip that is left.
  expect(await focusedName()).toBe('Remove trail-map.png');

  // A slow uplink, so that the progress can be seen.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
  await send(page);
  const bar = panel(page).getByRole('progressbar', { name: 'Uploading trail-map.png' });
  await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow').catch(() => 0)), { timeout: 10_000, interval: 50 }).toBeGreaterThan(0);
  const seen = Number(await bar.getAttribute('aria-valuenow'));
  expect(seen).toBeLessThan(100);
  await page.screenshot({ path: `${SCREENSHOTS}phone-upload-progress.png` });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  await expect.poll(() => userBubbles(page).allTextContents(), { timeout: ANSWER_MS }).toEqual(['Is this the right trail?[trail-map.png]']);
  await log(page).getByText(/Received 1 file: trail-map\.png/).waitFor({ timeout: ANSWER_MS });
  // The sent image is a thumbnail in the visitor's bubble, not a "📎 trail-map.png" line.
  expect(await log(page).locator('.msg.user .attachments canvas:not([hidden])').count()).toBe(1);
  await page.screenshot({ path: `${SCREENSHOTS}phone-upload-sent.png` });
  expect(await chips.count()).toBe(0);
  expect(await composer(page).inputValue()).toBe('');
  expect(phone.problems).toEqual([]);
  await context.close();
});

it('a refused upload: each chip says so, the text is back in the box, Retry sends them again', async () => {
  const phone = await openHostPage(world, { viewport: { width: 375, height: 740 } });
  const { page, context } = phone;
  await launcher(page).click();
  await panel(page).getByRole('button', { name: 'Attach files' }).waitFor();
  // The first upload is answered as if the service's upload flow were down; the next one goes through.
  let refuse = true;
  await page.route('**/api/upload', (route) =>
    refuse
      ? ((refuse = false), route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'upstream_unavailable', message: 'down' } }) }))
      : route.continue(),
  );
  await sendMessage(page, 'help');
  await log(page).getByText("Here's what I can do in this demo:").waitFor({ timeout: ANSWER_MS });
  await composer(page).fill('my receipts');
  await page.locator('[data-parley] input[type=file]').setInputFiles([
    { name: 'march.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 march') },
    { name: 'april.png', mimeType: 'image/png', buffer: png(48, [40, 160, 90]) },
  ]);
  await send(page);
  await panel(page).getByRole('alert').filter({ hasText: 'Your files were not sent.' }).waitFor({ timeout: ANSWER_MS });
  const chips = panel(page).getByRole('list', { name: 'Files to send' }).getByRole('listitem');
  expect(await chips.locator('.status').allTextContents()).toEqual(['Not sent', 'Not sent']);
  expect(await composer(page).inputValue()).toBe('my receipts');
  expect(await userBubbles(page).allTextContents()).toEqual(['help']);
  await page.screenshot({ path: `${SCREENSHOTS}phone-upload-refused.png` });

  await panel(page).getByRole('button', { name: 'Retry' }).click();
  await expect.poll(() => userBubbles(page).allTextContents(), { timeout: ANSWER_MS }).toEqual(['help', 'my receipts[march.pdf, april.png]']);
  await log(page).getByText(/Received 2 files: march\.pdf .*april\.png/).waitFor({ timeout: ANSWER_MS });
  expect(await chips.count()).toBe(0);
  // The refusal was the route's, not the page's: the console has only the failed request to show.
  expect(phone.problems.filter((p) => !/status of 503/.test(p))).toEqual([]);
  await context.close();
});
