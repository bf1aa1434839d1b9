/**
 * The README's pictures of the people behind the chat, for `npm run screenshots`: the
 * starter questions of an empty conversation, operators with their names and pictures after the
 * line saying each joined, the rating asked once the console archived the conversation, and the
 * away state with its email form on a phone. `prefix` names the files, e.g. `docs/screenshots/people`.
 */
import type { Browser } from 'playwright-core';
import { openChat, settle } from './screenshots-page.js';

const ANSWER_MS = 20_000;

/** Takes `{prefix}-starters.png`, `{prefix}-operator.png` and `{prefix}-csat.png` from the demo at `base`, at `width` px. */
export async function peopleShots(browser: Browser, base: string, prefix: string, width = 1280): Promise<void> {
  const phone = width < 500;
  const context = await browser.newContext({ viewport: { width, height: phone ? 740 : 800 }, hasTouch: phone, isMobile: phone, reducedMotion: 'reduce' });
  try {
    const shop = await context.newPage();
    await shop.goto(base + '/');
    await openChat(shop);
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

    // The console archives the conversation (after its confirm()); the panel asks for a rating.
    console.once('dialog', (dialog) => void dialog.accept());
    await console.locator('#archive').click();
    await chat.getByRole('group', { name: 'How did we do?' }).waitFor({ timeout: ANSWER_MS });
    await settle(shop);
    await shop.screenshot({ path: `${prefix}-csat.png` });
  } finally {
    await context.close();
  }
}

/** The away state on a 375 px phone, from a demo at `base` whose team is away: when it is back, and the email form. */
export async function awayShot(browser: Browser, base: string, path: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true, reducedMotion: 'reduce', locale: 'en-GB' });
  try {
    const shop = await context.newPage();
    await shop.goto(base + '/');
    await openChat(shop);
    const chat = shop.getByRole('dialog');
    await chat.getByText(/^We're away right now\. Back /).waitFor({ timeout: ANSWER_MS });
    const box = chat.getByRole('textbox', { name: 'Message' });
    await box.fill('Is my parcel lost?');
    await box.press('Enter');
    await chat.getByRole('textbox', { name: 'Leave your email and we will get back to you:' }).waitFor({ timeout: ANSWER_MS });
    await chat.getByText(/NO-48213/).waitFor({ timeout: ANSWER_MS }); // the answer after its lead-in
    await settle(shop);
    await shop.screenshot({ path });
  } finally {
    await context.close();
  }
}
