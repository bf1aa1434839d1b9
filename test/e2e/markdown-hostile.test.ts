/**
 * Hostile Markdown from upstream, in the browser: answers built to break or freeze a Markdown
 * renderer (2,000 nested quotes, a 2,000 × 40 table, 80 KB of unclosed links, a 3,000-deep list as
 * large as the BFF's webhook body allows) arrive through the BFF's signed webhook path like any bot
 * message. Each one shows (as Markdown or as its plain text), no page error is raised, a normal
 * message after them renders, and no main-thread task while one renders takes longer than 200 ms.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signWebhook } from '../../bff/src/lib/webhook-verify.js';
import { MAX_WEBHOOK_BYTES } from '../../bff/src/routes/webhook-ingest.js';
import { ANSWER_MS, idle, launcher, openHostPage, panel, sendMessage, startWorld, storedSessionId, trackRequests, type World } from './harness.js';

const SECRET = 'e2e-webhook-secret-0123456789';
/** The longest a single main-thread task may take while a message renders (at 1× CPU). */
const LONGEST_TASK_MS = 200;

let world: World;

beforeAll(async () => {
  world = await startWorld({ WEBHOOK_SECRET: SECRET, SIM_DUPLICATE_RATE: '0' });
});
afterAll(async () => {
  await world?.close();
});

let sequence = 0;

/** Delivers `text` as a bot message of conversation `sessionId`, signed as the service signs its webhooks. */
async function deliver(sessionId: number, text: string): Promise<void> {
  const n = ++sequence;
  const raw = JSON.stringify({ event: 'message.added', eventId: `hostile-${n}`, sessionId, createdAt: Date.now(), data: { id: `hostile-${n}`, message: text, hbo: 'bot' } });
  const ts = String(Math.floor(Date.now() / 1000));
  const res = await fetch(`${world.bff.url}/webhooks/agent`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-timestamp': ts, 'x-service-signature': signWebhook(SECRET, ts, raw) },
    body: raw,
  });
  expect(res.status, await res.text()).toBeLessThan(300);
}

/** Starts recording long tasks (over 50 ms, the browser's own threshold) on the page. */
const watchLongTasks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { __longest: number; __observer?: PerformanceObserver };
    w.__observer?.disconnect();
    w.__longest = 0;
    w.__observer = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
    });
    w.__observer.observe({ type: 'longtask' });
  });

/** The longest task seen since `watchLongTasks`, after the page has been idle for a moment (0 when none passed 50 ms). */
const longestTask = async (page: Page) => {
  await idle(page); // long tasks are reported to the observer in a task of their own, before idle time
  return page.evaluate(() => (window as unknown as { __longest: number }).__longest);
};

const bubbles = (page: Page) => panel(page).locator('.msg.bot .bubble');

/**
 * Lists nested `depth` deep (each line opens them all: `- - - … item`), as many lines as fit a
 * webhook body of `bytes` once the text is JSON.
 */
function deepList(depth: number, bytes: number): string {
  const line = `${'- '.repeat(depth)}item`;
  const lines = Math.floor(bytes / (JSON.stringify(line).length - 2 + 2));
  return Array.from({ length: lines }, () => line).join('\n');
}

const HOSTILE: { name: string; text: (room: number) => string }[] = [
  { name: '2,000 nested quotes', text: () => `${'>'.repeat(2000)} deep` },
  {
    name: 'a 2,000 × 40 table',
    text: () => {
      const row = (c: string) => `|${Array.from({ length: 40 }, () => c).join('|')}|`;
      return [row('h'), row('---'), ...Array.from({ length: 2000 }, () => row('x'))].join('\n');
    },
  },
  { name: '80 KB of unclosed links', text: () => '[a]('.repeat(20_000) },
  { name: 'lists 3,000 deep, as large as a webhook may be', text: (room) => deepList(3000, room) },
];

it('hostile Markdown never stops the chat nor blocks the page for long', async () => {
  const { page, context, problems } = await openHostPage(world);
  const requests = trackRequests(page);
  await launcher(page).click();
  await sendMessage(page, 'Hello');
  await expect.poll(() => storedSessionId(world, page), { timeout: ANSWER_MS }).toMatch(/^\d+$/);
  const sessionId = Number(await storedSessionId(world, page));
  await expect.poll(() => bubbles(page).count(), { timeout: ANSWER_MS }).toBeGreaterThan(0);
  // Let the demo agent's own answers finish before measuring.
  await requests.settled();

  // The largest body the BFF takes, less the envelope around the text.
  const room = MAX_WEBHOOK_BYTES - 512;
  const figures: Record<string, number> = {};
  for (const { name, text } of HOSTILE) {
    const body = text(room);
    const before = await bubbles(page).count();
    await watchLongTasks(page);
    await deliver(sessionId, body);
    await expect.poll(() => bubbles(page).count(), { timeout: ANSWER_MS }).toBeGreaterThan(before);
    figures[`${name} (${Math.round(body.length / 1024)} KB)`] = Math.round(await longestTask(page));
  }

  await watchLongTasks(page);
  await deliver(sessionId, 'After all that, **this** still renders.');
  const last = bubbles(page).last();
  await expect.poll(() => last.innerText(), { timeout: ANSWER_MS }).toContain('After all that, this still renders.');
  expect(await last.locator('strong').count()).toBe(1);
  figures['a normal message after them'] = Math.round(await longestTask(page));

  console.log('longest main-thread task per message, ms:', figures);
  for (const [name, ms] of Object.entries(figures)) expect(ms, name).toBeLessThanOrEqual(LONGEST_TASK_MS);
  // The renderer's warnings are console.warn, not errors: nothing here may be an error or a page error.
  expect(problems).toEqual([]);
  await context.close();
});
