/**
 * `npm run screenshots`: the README's pictures of the demo, taken from a fresh demo server in
 * headless Chromium (`CHROME_PATH`, default /usr/bin/chromium): the shop with a carousel, the
 * handoff to a person, the operator console, the webhook inspector, the phone layout, and a
 * signed-in customer continuing one conversation in a second browser; then the people behind the
 * chat (screenshots-people.ts): starter questions, and operators with names and pictures.
 * Emoji need a colour emoji font (Debian: fonts-noto-color-emoji). Not part of the tests.
 */
import { mkdirSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';
import { ensureWidgetBuilt } from '../test/e2e/harness.js';
import { peopleShots } from './screenshots-people.js';
import { startServer } from '../test/helpers/server.js';

const OUT = 'docs/screenshots';
const ANSWER_MS = 20_000;

async function main() {
  ensureWidgetBuilt();
  mkdirSync(OUT, { recursive: true });
  const demo = await startServer({ SIM_REPLY_DELAY_MS: '400', SIM_DUPLICATE_RATE: '0.3' });
  // The demo's pages and images name localhost (PUBLIC_ORIGIN's default), so the browser does too.
  const base = `http://localhost:${demo.port}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const shop = await desktop.newPage();
    await shop.goto(base + '/');
    await shop.locator('[data-parley] button.launcher').click();
    await say(shop, 'Show me a carousel');
    await shop.getByRole('dialog').getByText('Ridgeline 38L Pack').first().waitFor({ timeout: ANSWER_MS });
    await shop.waitForTimeout(600); // the agent's second message, when it sends one
    await shop.screenshot({ path: `${OUT}/demo-desktop.png` });

    // Handoff: the visitor asks for a person, the operator answers from the console.
    await shop.getByRole('dialog').getByRole('button', { name: 'Talk to a person' }).click();
    await shop.getByRole('dialog').getByText('A person from our team will take it from here.').waitFor({ timeout: ANSWER_MS });
    const operator = await desktop.newPage();
    await operator.goto(base + '/console');
    await operator.locator('#conversations button.conversation').first().click();
    await operator.locator('#op-name').selectOption('mara');
    await operator.locator('#op-text').fill("Hi, I'm Mara from the Nimbus team. Happy to help: which size are you after?");
    await operator.locator('#reply button[type=submit]').click();
    await shop.getByRole('dialog').getByText("Hi, I'm Mara from the Nimbus team.", { exact: false }).waitFor({ timeout: ANSWER_MS });
    await shop.screenshot({ path: `${OUT}/demo-handoff.png` });
    await operator.screenshot({ path: `${OUT}/demo-console.png` });

    // The inspector, after two forgeries and the replay of a real event.
    const inspector = await desktop.newPage();
    await inspector.goto(base + '/inspector');
    for (const forge of ['bad_signature', 'stale', 'replay']) {
      await inspector.locator(`[data-forge=${forge}]`).click();
      await inspector.waitForTimeout(300);
    }
    await inspector.screenshot({ path: `${OUT}/demo-inspector.png` });

    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true, reducedMotion: 'reduce' });
    const mobile = await phone.newPage();
    await mobile.goto(base + '/');
    await mobile.locator('[data-parley] button.launcher').click();
    await say(mobile, 'card');
    await mobile.getByRole('dialog').getByText('Ridgeline 38L Pack').first().waitFor({ timeout: ANSWER_MS });
    await mobile.waitForTimeout(600); // the product image
    await mobile.screenshot({ path: `${OUT}/demo-phone.png` });

    // Signed-in customers: Ada starts on one browser and continues on another (a second device).
    const laptop = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })).newPage();
    await signIn(laptop, base, 'Ada');
    await say(laptop, 'Where is my order?');
    await laptop.getByRole('dialog').getByText(/NO-48213/).first().waitFor({ timeout: ANSWER_MS });
    const second = await (await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' })).newPage();
    await signIn(second, base, 'Ada');
    await second.getByRole('dialog').getByText('Where is my order?').first().waitFor({ timeout: ANSWER_MS });
    await say(second, 'Can I change the delivery address?');
    await laptop.getByRole('dialog').getByText('Can I change the delivery address?').waitFor({ timeout: ANSWER_MS });
    await second.waitForTimeout(800);
    await second.screenshot({ path: `${OUT}/demo-signed-in.png` });
    await second.getByRole('dialog').getByRole('button', { name: 'Conversations' }).click();
    await second.getByRole('dialog').getByRole('heading', { name: 'Your conversations' }).waitFor();
    await second.waitForTimeout(300);
    await second.screenshot({ path: `${OUT}/demo-conversations.png` });
    await operator.bringToFront();
    await operator.locator('#conversations button.conversation', { has: operator.locator('.pill.verified') }).first().click();
    await operator.waitForTimeout(300);
    await operator.screenshot({ path: `${OUT}/demo-console-verified.png` });
    await peopleShots(browser, base, `${OUT}/people`);
    console.log(`wrote ${OUT}/demo-{desktop,handoff,console,inspector,phone,signed-in,conversations,console-verified}.png, people-{starters,operator}.png`);
  } finally {
    await browser.close();
    await demo.stop();
  }
}

/** Opens the shop, signs in as one of its sample customers and opens the chat. */
async function signIn(page: Page, base: string, customer: 'Ada' | 'Ben') {
  await page.goto(base + '/');
  await page.getByRole('button', { name: customer, exact: true }).click();
  await page.getByText(`Signed in as`).waitFor();
  await page.locator('[data-parley] button.launcher').click();
}

async function say(page: Page, text: string) {
  const box = page.getByRole('dialog').getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
