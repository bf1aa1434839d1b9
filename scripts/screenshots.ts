/**
 * `npm run screenshots`: the pictures of the demo in the README and docs/, taken from a fresh demo
 * server in headless Chromium (`CHROME_PATH`, default /usr/bin/chromium, never a downloaded one):
 * the shop with a carousel, the handoff to a person, the operator console, the webhook inspector,
 * the phone layout, an answer in Markdown on a phone, and a signed-in customer continuing one conversation in a second browser; then
 * the people behind the chat (screenshots-people.ts: starter questions, operators with names and
 * pictures, the rating at the end, and, from a second server whose team is away, the away state),
 * and the languages (screenshots-locales.ts: Arabic right-to-left, the German header's menu at 360 px).
 * Emoji need a colour emoji font (Debian: fonts-noto-color-emoji). Not part of the tests.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ensureWidgetBuilt, launchBrowser } from '../test/e2e/harness.js';
import { localeShots } from './screenshots-locales.js';
import { answered, openChat, settle } from './screenshots-page.js';
import { awayShot, peopleShots } from './screenshots-people.js';
import { startServer } from '../test/helpers/server.js';

const OUT = 'docs/screenshots';
const ANSWER_MS = 20_000;

async function main() {
  ensureWidgetBuilt();
  mkdirSync(OUT, { recursive: true });
  const [demo, away, slow] = await Promise.all([
    startServer({ SIM_REPLY_DELAY_MS: '400', SIM_DUPLICATE_RATE: '0.3' }, { timeoutMs: 90_000 }),
    // The away state needs a team that is away: a second demo whose only support hour is not now.
    // The launcher stays (CLOSED_LAUNCHER=show, where the demo hides it from new visitors while away): the picture is of the panel.
    startServer({ SUPPORT_HOURS: closedNow(), SUPPORT_TIMEZONE: 'UTC', CLOSED_LAUNCHER: 'show' }, { timeoutMs: 90_000 }),
    // The languages: the visitor asks for a person before writing; an agent that takes its time
    // never answers that first message in English before the conversation is with a person.
    startServer({ SIM_REPLY_DELAY_MS: '4000' }, { timeoutMs: 90_000 }),
  ]);
  // The demo's pages and images name localhost (PUBLIC_ORIGIN's default), so the browser does too.
  const base = `http://localhost:${demo.port}`;
  const browser = await launchBrowser();
  try {
    const desktop = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
    const shop = await desktop.newPage();
    await shop.goto(base + '/');
    await openChat(shop);
    await say(shop, 'Show me a carousel');
    await shop.getByRole('dialog').getByText('Ridgeline 38L Pack').first().waitFor({ timeout: ANSWER_MS });
    await shop.waitForTimeout(600); // the agent's second message, when it sends one
    await settle(shop);
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
    await settle(shop); // Mara's picture
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
    await openChat(mobile);
    await say(mobile, 'card');
    await mobile.getByRole('dialog').getByText('Ridgeline 38L Pack').first().waitFor({ timeout: ANSWER_MS });
    await settle(mobile); // the product image
    await mobile.screenshot({ path: `${OUT}/demo-phone.png` });

    // An answer in Markdown on the phone: heading, table (it scrolls inside its bubble), lists, code.
    const markdown = await phone.newPage();
    await markdown.goto(base + '/');
    await openChat(markdown);
    await say(markdown, 'markdown');
    await markdown.getByRole('dialog').getByRole('group', { name: 'Table' }).waitFor({ timeout: ANSWER_MS });
    await answered(markdown);
    await settle(markdown);
    await markdown.screenshot({ path: `${OUT}/answers-markdown.png` });

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
    await answered(second);
    await settle(second);
    await second.screenshot({ path: `${OUT}/demo-signed-in.png` });
    await second.getByRole('dialog').getByRole('button', { name: 'Conversations' }).click();
    await second.getByRole('dialog').getByRole('heading', { name: 'Your conversations' }).waitFor();
    await second.waitForTimeout(300);
    await second.screenshot({ path: `${OUT}/demo-conversations.png` });
    await operator.bringToFront();
    await operator.setViewportSize({ width: 1280, height: 900 }); // Ada's whole thread, not cut at the top
    await operator.locator('#conversations button.conversation', { has: operator.locator('.pill.verified') }).first().click();
    await operator.waitForTimeout(300);
    await operator.screenshot({ path: `${OUT}/demo-console-verified.png` });
    await peopleShots(browser, base, `${OUT}/people`);
    await localeShots(browser, `http://localhost:${slow.port}`, `${OUT}/locale`);
    await awayShot(browser, `http://localhost:${away.port}`, `${OUT}/people-away.png`);
    console.log(`wrote ${OUT}/demo-{desktop,handoff,console,inspector,phone,signed-in,conversations,console-verified}.png, answers-markdown.png, people-{starters,operator,csat,away}.png, locale-{ar,de-menu}.png`);
  } catch (err) {
    // What every open page showed when a step gave up: the quickest way to see why.
    const pages = browser.contexts().flatMap((c) => c.pages());
    for (const [i, page] of pages.entries()) await page.screenshot({ path: join(tmpdir(), `parley-screenshots-failed-${i}.png`) }).catch(() => {});
    console.error(`the pages as they were: ${join(tmpdir(), 'parley-screenshots-failed-*.png')}`);
    throw err;
  } finally {
    await browser.close();
    await Promise.all([demo.stop(), away.stop(), slow.stop()]);
  }
}

/** One support hour two days from now (UTC): closed whatever the time of the run. */
function closedNow(): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  return `${days[(new Date().getUTCDay() + 2) % 7]} 09:00-10:00`;
}

/** Opens the shop, signs in as one of its sample customers and opens the chat. */
async function signIn(page: Page, base: string, customer: 'Ada' | 'Ben') {
  await page.goto(base + '/');
  await page.getByRole('button', { name: customer, exact: true }).click();
  await page.getByText(`Signed in as`).waitFor();
  await openChat(page);
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
