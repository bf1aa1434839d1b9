/**
 * The README's pictures of the widget in other languages, for `npm run screenshots`: Arabic on a
 * 375 px phone (right-to-left, Arabic digits in the times, a Latin order number and name inside
 * Arabic text) and German at 360 px with the header's "More" menu open. The simulated agent answers
 * in English only, so in both the visitor asks for a person first and an operator answers in the
 * visitor's language: every word on the picture is then in that language.
 */
import type { Browser, Page } from 'playwright-core';
import { openChat, settle } from './screenshots-page.js';

const ANSWER_MS = 20_000;

interface Scene {
  locale: string;
  width: number;
  /** The strings the script clicks and types into, in that language. */
  human: string;
  /** The banner once the conversation is with a person: only then may the operator answer. */
  escalated: string;
  message: string;
  question: string;
  answer: string;
}

const ARABIC: Scene = {
  locale: 'ar-EG',
  width: 375,
  human: 'التحدث إلى شخص',
  escalated: 'سيتولى أحد أعضاء فريقنا المحادثة من هنا.',
  message: 'رسالة',
  question: 'مرحبًا، لم يصلني الطلب NO-48213 بعد. هل يمكنكم المساعدة؟',
  answer: 'أهلًا، أنا مارا من فريق Nimbus. الطلب NO-48213 في الطريق، وسيصل يوم الخميس قبل الظهر.',
};

const GERMAN: Scene = {
  locale: 'de-DE',
  width: 360,
  human: 'Mit einem Menschen sprechen',
  escalated: 'Ein Mitglied unseres Teams übernimmt jetzt.',
  message: 'Nachricht',
  question: 'Hallo, meine Bestellung NO-48213 ist noch nicht da. Können Sie helfen?',
  answer: 'Hallo, ich bin Mara vom Nimbus-Team. NO-48213 ist unterwegs und kommt am Donnerstag vor zwölf.',
};

/** Takes `{prefix}-ar.png` and `{prefix}-de-menu.png` from the demo at `base`. */
export async function localeShots(browser: Browser, base: string, prefix: string): Promise<void> {
  await scene(browser, base, ARABIC, async (page) => {
    await page.screenshot({ path: `${prefix}-ar.png` });
  });
  await scene(browser, base, GERMAN, async (page) => {
    await page.getByRole('dialog').getByRole('button', { name: 'Mehr' }).click();
    await page.getByRole('dialog').getByRole('menu').waitFor();
    await page.screenshot({ path: `${prefix}-de-menu.png` });
  });
}

/** A phone in `s.locale`: the visitor asks for a person, writes, and Mara answers in the same language. */
async function scene(browser: Browser, base: string, s: Scene, shoot: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ viewport: { width: s.width, height: 740 }, hasTouch: true, isMobile: true, reducedMotion: 'reduce', locale: s.locale });
  try {
    const page = await context.newPage();
    await page.goto(base + '/');
    await openChat(page);
    const chat = page.getByRole('dialog');
    await chat.getByRole('button', { name: s.human }).click();
    const box = chat.getByRole('textbox', { name: s.message });
    await box.fill(s.question);
    await box.press('Enter');
    await chat.getByText(s.question).waitFor({ timeout: ANSWER_MS });
    await chat.getByText(s.escalated).waitFor({ timeout: ANSWER_MS });
    await operatorSays(page, base, s.answer);
    await chat.getByText(s.answer).waitFor({ timeout: ANSWER_MS });
    await settle(page); // Mara's picture
    await shoot(page);
  } finally {
    await context.close();
  }
}

/** Mara answers on the page's conversation through the simulator's console API (as the console's Send does). */
async function operatorSays(page: Page, base: string, text: string) {
  // The conversation id appears once the first message has started it.
  await page.waitForFunction((key) => !!JSON.parse(localStorage.getItem(key) || '{}').sessionId, `parley:${base}`);
  const id = await page.evaluate((key) => (JSON.parse(localStorage.getItem(key) || '{}') as { sessionId: string }).sessionId, `parley:${base}`);
  // The widget asks for the person right after the first message has started the conversation; the
  // banner shows as soon as it asks, so the service may need a moment more (409 not_escalated).
  for (let tries = 0; ; tries++) {
    const res = await fetch(`${base}/sim/operator/conversations/${id}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text, name: 'mara' }),
    });
    if (res.ok) return;
    const body = await res.text();
    if (res.status !== 409 || tries === 50) throw new Error(`operator message: ${res.status} ${body}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
