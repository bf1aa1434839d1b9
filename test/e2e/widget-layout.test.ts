/**
 * Layout details of the panel that only a browser can measure: "Full height" changes the height
 * alone, and a code such as "NO-48213" in a bubble never breaks at its hyphen on a 375 px phone.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { composer, launcher, openHostPage, panel, SCREENSHOTS, startWorld, type World } from './harness.js';

let world: World;

beforeAll(async () => {
  world = await startWorld();
});
afterAll(async () => {
  await world?.close();
});

it('"Full height" makes the panel taller, not wider over the page', async () => {
  const desk = await openHostPage(world, { viewport: { width: 1280, height: 1000 } });
  const { page } = desk;
  await launcher(page).click();
  await composer(page).waitFor();
  const before = (await panel(page).boundingBox())!;
  await panel(page).getByRole('button', { name: 'More' }).click();
  await panel(page).getByRole('menuitemcheckbox', { name: 'Full height' }).click();
  await expect.poll(async () => (await panel(page).boundingBox())!.height).toBeGreaterThan(before.height + 50);
  const after = (await panel(page).boundingBox())!;
  expect(after.width).toBe(before.width);
  expect(after.x).toBe(before.x);
  expect(after.y + after.height).toBe(before.y + before.height);
  await page.screenshot({ path: `${SCREENSHOTS}full-height-1280.png` });
  expect(desk.problems).toEqual([]);
  await desk.context.close();
});

it('at 375 px a code such as NO-48213 stays on one line in a bubble that wraps', async () => {
  const phone = await openHostPage(world, { viewport: { width: 375, height: 740 } });
  const { page } = phone;
  await launcher(page).click();
  // Codes at every offset of a wrapping text: some of them fall where a line ends.
  const text = Array.from({ length: 12 }, (_, i) => `${'a'.repeat(i % 5)} NO-4821${i}`).join(' ');
  await composer(page).fill(text);
  await composer(page).press('Enter');
  const bubble = panel(page).locator('.bubble', { hasText: 'NO-48211' }).first();
  await bubble.waitFor();
  const lines = await bubble.evaluate((el) => {
    const spans = [...el.querySelectorAll('.nowrap')];
    const line = parseFloat(getComputedStyle(el).lineHeight) || 20;
    return { codes: spans.length, rects: spans.map((s) => s.getClientRects().length), rows: Math.round(el.querySelector('p, div')?.getBoundingClientRect().height ?? el.getBoundingClientRect().height) / line };
  });
  expect(lines.codes).toBe(12);
  expect(lines.rows).toBeGreaterThan(2);
  expect(lines.rects).toEqual(Array(12).fill(1));
  await bubble.screenshot({ path: `${SCREENSHOTS}nowrap-codes-375.png` });
  expect(phone.problems).toEqual([]);
  await phone.context.close();
});

it('at 375 px files dragged over the panel show a drop target over it, gone when they leave', async () => {
  const phone = await openHostPage(world, { viewport: { width: 375, height: 740 } });
  const { page } = phone;
  await launcher(page).click();
  await panel(page).getByRole('button', { name: 'Attach files' }).waitFor();
  const drag = (type: string) =>
    panel(page).getByRole('log').evaluate((el, type) => {
      const data = new DataTransfer();
      data.items.add(new File(['x'], 'shot.png', { type: 'image/png' }));
      el.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, composed: true, cancelable: true }));
    }, type);
  await drag('dragover');
  const target = panel(page).locator('.drop-target');
  await target.waitFor();
  expect(await target.textContent()).toBe('Drop files to add them');
  const [box, whole] = [(await target.boundingBox())!, (await panel(page).boundingBox())!];
  expect(box.width).toBeGreaterThan(whole.width - 20);
  expect(box.height).toBeGreaterThan(whole.height - 20);
  await page.screenshot({ path: `${SCREENSHOTS}drop-target-375.png` });
  await drag('dragleave');
  await expect.poll(() => target.count()).toBe(0);
  expect(phone.problems).toEqual([]);
  await phone.context.close();
});

it('at 375 px "Talk to a person" and the reply-time line share one compact line above the log', async () => {
  const phone = await openHostPage(world, { viewport: { width: 375, height: 740 } });
  const { page } = phone;
  await launcher(page).click();
  const human = panel(page).getByRole('button', { name: 'Talk to a person' });
  await human.waitFor();
  const team = panel(page).getByText(/^The team usually replies/);
  const [pill, line, header, log] = await Promise.all([human.boundingBox(), team.boundingBox(), panel(page).locator('.header').boundingBox(), panel(page).getByRole('log').boundingBox()]);
  // Side by side, one row: the log starts at most 40 px below the header (it took about 70 px as two rows).
  expect(Math.abs(pill!.y + pill!.height / 2 - (line!.y + line!.height / 2))).toBeLessThanOrEqual(2);
  expect(line!.x).toBeGreaterThan(pill!.x + pill!.width);
  expect(log!.y - (header!.y + header!.height)).toBeLessThanOrEqual(40);
  await page.screenshot({ path: `${SCREENSHOTS}phone-reach-375.png`, clip: { x: 0, y: 0, width: 375, height: 200 } });
  expect(phone.problems).toEqual([]);
  await phone.context.close();
});
