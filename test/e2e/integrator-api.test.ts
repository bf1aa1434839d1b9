/**
 * The integrator's API through `window.Parley` only (docs/embedding.md "API"): the method forms from
 * the moment widget.js has run, `on()`'s removal, the lifecycle events, `update()` for single-page
 * apps, `open({prefill})`, `theme.offset` and `theme.zIndex`, and the loader's frame whose text box
 * takes the visitor's typing before the chat has come.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_MS, composer, gate, launcher, openHostPage, operatorAction, panel, sendMessage, startWorld, storedSessionId, trackRequests, type World } from './harness.js';

let world: World;
beforeAll(async () => {
  // No identity tokens (the demo's default has them): the browser may set the allowed user variables.
  world = await startWorld({ IDENTITY_SECRET: '', USER_VARIABLES: 'pageUrl,pageTitle,plan', CSAT: 'after_operator', ESCALATION_OPERATOR_EMAIL: 'ops@nimbus-outdoor.example' });
});
afterAll(() => world?.close());

const chatFile = /\/parley-chat\.[\w-]+\.js$/;
type Method = 'init' | 'open' | 'close' | 'update' | 'on';
type Api = ((...a: unknown[]) => unknown) & { [M in Method]: (...a: unknown[]) => unknown } & Record<string, unknown>;
type W = { Parley: Api; seen: unknown[][] };
const log = (page: Page) => panel(page).getByRole('log');
/** Whether the focused element is a `tag` in the shadow root of the element `host` names. */
const focusedIn = (page: Page, host: string, tag = 'textarea') =>
  page.evaluate(([h, t]) => document.querySelector(h!)?.shadowRoot?.activeElement?.matches(t!) ?? false, [host, tag]);

/** Records every event named in `events` into `window.seen`, through the method form `Parley.on`. */
async function listen(page: Page, events: string[]): Promise<void> {
  await page.waitForFunction(() => typeof (window as unknown as W).Parley?.on === 'function');
  await page.evaluate((names) => {
    const w = window as unknown as W;
    w.seen = [];
    for (const name of names) w.Parley.on(name, (data: unknown) => w.seen.push([name, data]));
  }, events);
}
const seen = (page: Page) => page.evaluate(() => (window as unknown as W).seen);

/** The conversation's user variables as the service has them (the simulator's console API). */
async function variables(page: Page): Promise<Record<string, unknown>> {
  const res = await fetch(`${world.bff.url}/sim/operator/conversations/${await storedSessionId(world, page)}`);
  return ((await res.json()) as { variables: Record<string, unknown> }).variables;
}

describe('the method forms', () => {
  it('exist as soon as widget.js has run, queue until the chat is there, and on() hands back its removal', async () => {
    const { page, context, problems } = await openHostPage(world);
    const fetched: string[] = [];
    page.on('request', (r) => chatFile.test(r.url()) && fetched.push(r.url()));
    const requests = trackRequests(page);
    await page.waitForFunction(() => typeof (window as unknown as W).Parley?.open === 'function');
    const forms = await page.evaluate(() => {
      const w = window as unknown as W & { removed: unknown };
      w.seen = [];
      const off = w.Parley.on('open', () => w.seen.push(['removed before the chat']));
      w.removed = off;
      (off as () => void)();
      w.Parley.on('open', () => w.seen.push(['open']));
      w.Parley.on('ready', () => w.seen.push(['ready']));
      return ['open', 'close', 'toggle', 'send', 'show', 'identify', 'update', 'on', 'off', 'reset', 'destroy', 'init'].filter((m) => typeof w.Parley[m] !== 'function');
    });
    expect(forms).toEqual([]);
    await requests.settled();
    expect(fetched).toEqual([]); // registering handlers fetches nothing
    await page.evaluate(() => (window as unknown as W).Parley.open());
    await expect.poll(() => focusedIn(page, '[data-parley]')).toBe(true);
    await panel(page).waitFor();
    await expect.poll(() => seen(page)).toEqual(expect.arrayContaining([['open'], ['ready']]));
    expect(await seen(page)).not.toContainEqual(['removed before the chat']);

    // With the chat here, the chat's own on() hands back its removal too.
    await page.evaluate(() => {
      const w = window as unknown as W;
      const off = w.Parley.on('close', () => w.seen.push(['close']));
      (off as () => void)();
      w.Parley.close();
    });
    await expect.poll(() => panel(page).count()).toBe(0);
    expect(await seen(page)).not.toContainEqual(['close']);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the first open', () => {
  /** A page whose chat file is held back until `release()`. */
  async function held(): Promise<{ page: Page; close(): Promise<void>; problems: string[]; release(): void }> {
    const { page, context, problems } = await openHostPage(world);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    await page.route(chatFile, async (route) => {
      await gate;
      await route.continue();
    });
    await page.locator('[data-parley-loader] button.launcher').waitFor();
    return { page, problems, release, close: () => context.close() };
  }

  it("a click with no warning lands in a text box at once; what is typed before the chat came is in the chat's text box, which takes the rest", async () => {
    const { page, problems, release, close } = await held();
    await page.locator('[data-parley-loader] button.launcher').evaluate((b: HTMLButtonElement) => b.click());
    expect(await focusedIn(page, '[data-parley-loader]')).toBe(true); // in the same task as the click
    expect(await page.locator('[data-parley-loader] textarea').getAttribute('placeholder')).toBe('Type a message…');
    await page.keyboard.type('Do you ship');
    release();
    await composer(page).waitFor();
    await expect.poll(() => composer(page).inputValue()).toBe('Do you ship');
    await expect.poll(() => focusedIn(page, '[data-parley]')).toBe(true);
    await page.keyboard.type(' to Norway?');
    expect(await composer(page).inputValue()).toBe('Do you ship to Norway?');
    expect(await log(page).getByText('Do you ship').count()).toBe(0); // not sent
    await expect.poll(() => page.locator('[data-parley-loader]').count()).toBe(0);
    expect(problems).toEqual([]);
    await close();
  });

  it('Enter in the frame sends the message once the chat has come', async () => {
    const { page, problems, release, close } = await held();
    await page.locator('[data-parley-loader] button.launcher').click();
    await page.keyboard.type('Do you ship to Norway?');
    await page.keyboard.press('Enter');
    expect(await page.locator('[data-parley-loader] textarea').inputValue()).toBe('');
    release();
    await log(page).getByText('Do you ship to Norway?').waitFor({ timeout: ANSWER_MS });
    await panel(page).getByRole('group', { name: 'Rate this answer' }).last().waitFor({ timeout: ANSWER_MS }); // answered
    expect(await composer(page).inputValue()).toBe('');
    expect(problems).toEqual([]);
    await close();
  });
});

describe('a page that drives the chat', () => {
  it('open({prefill}) fills the text box without sending; update({page}) goes with the next message, a route change with the one after', async () => {
    const { page, context, problems } = await openHostPage(world);
    await listen(page, ['message']);
    const requests = trackRequests(page);
    await page.evaluate(() => {
      const { Parley } = window as unknown as W;
      Parley.update({ page: { url: 'https://shop.example/tents/ridge', title: 'Ridge tent' }, variables: { plan: 'pro' } });
      Parley.open({ prefill: 'Is the Ridge tent in stock?' });
    });
    await composer(page).waitFor();
    await expect.poll(() => composer(page).inputValue()).toBe('Is the Ridge tent in stock?');
    await expect.poll(() => focusedIn(page, '[data-parley]')).toBe(true);
    await requests.settled();
    expect(await seen(page)).toEqual([]); // nothing was sent
    await composer(page).press('Enter');
    await expect.poll(() => variables(page), { timeout: ANSWER_MS }).toMatchObject({ pageUrl: 'https://shop.example/tents/ridge', pageTitle: 'Ridge tent', plan: 'pro' });

    // The app moved on to another route without a reload.
    await page.evaluate(() => (window as unknown as W).Parley.update({ page: { url: 'https://shop.example/boots' } }));
    await requests.settled(); // whatever update() sent has arrived
    expect((await variables(page)).pageUrl).toBe('https://shop.example/tents/ridge'); // not before the next message
    await sendMessage(page, 'And boots?');
    await expect.poll(async () => (await variables(page)).pageUrl, { timeout: ANSWER_MS }).toBe('https://shop.example/boots');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('tells the page when the conversation starts, goes to a person, a person joins, an answer is voted on, it ends and is rated', async () => {
    const { page, context, problems } = await openHostPage(world);
    await listen(page, ['conversation', 'operator', 'feedback', 'rating', 'contact']);
    await launcher(page).click();
    await sendMessage(page, 'Do you ship to Norway?');
    const votes = panel(page).getByRole('group', { name: 'Rate this answer' }).last();
    await votes.waitFor({ timeout: ANSWER_MS });
    const sessionId = await storedSessionId(world, page);
    expect(sessionId).toBeTruthy();
    await votes.getByRole('button', { name: 'Helpful', exact: true }).click();
    await expect.poll(() => seen(page)).toContainEqual(['feedback', { messageId: expect.any(String), vote: 'up' }]);

    await panel(page).getByRole('button', { name: 'Talk to a person' }).click();
    await expect.poll(() => seen(page), { timeout: ANSWER_MS }).toContainEqual(['conversation', { sessionId, state: 'escalated' }]);
    await operatorAction(world, page, 'messages', { text: 'Hi, Mara here.' });
    await log(page).getByText('Hi, Mara here.').waitFor({ timeout: ANSWER_MS });
    await operatorAction(world, page, 'messages', { text: 'Norway is fine.' });
    await log(page).getByText('Norway is fine.').waitFor({ timeout: ANSWER_MS });
    await operatorAction(world, page, 'archive');
    await expect.poll(() => seen(page), { timeout: ANSWER_MS }).toContainEqual(['conversation', { sessionId, state: 'archived' }]);
    const question = panel(page).getByRole('group', { name: 'How did we do?' });
    await question.getByRole('radio').first().focus();
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
    expect(await question.getByRole('radio', { name: 'Excellent' }).isChecked()).toBe(true);
    await panel(page).getByRole('button', { name: 'Send rating' }).click();
    await expect.poll(() => seen(page), { timeout: ANSWER_MS }).toContainEqual(['rating', { score: 5 }]);

    const events = (await seen(page)) as Array<[string, Record<string, unknown>]>;
    expect(events.map(([name, data]) => (name === 'conversation' ? `${name}:${data.state}` : name))).toEqual(['conversation:started', 'feedback', 'conversation:escalated', 'operator', 'conversation:archived', 'rating']);
    expect(events[0]![1]).toEqual({ sessionId, state: 'started' });
    expect(events[3]![1]).toEqual({ name: expect.stringMatching(/\S/) }); // one person, named once though they wrote twice
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('placement', () => {
  const box = async (page: Page, selector: string) => {
    const b = (await page.locator(selector).boundingBox())!;
    return { right: Math.round(1280 - b.x - b.width), bottom: Math.round(800 - b.y - b.height) };
  };
  const zIndex = (page: Page, selector: string) => page.locator(selector).evaluate((el) => getComputedStyle(el).zIndex);

  it('theme.offset and theme.zIndex place the launcher, the frame and the panel; the page may set --parley-z-index instead', async () => {
    const { page, context, problems } = await openHostPage(world);
    await page.locator('[data-parley-loader] button.launcher').waitFor();
    await page.evaluate(() => (window as unknown as W).Parley.init({ theme: { offset: { x: 40, y: 100 }, zIndex: 10 } }));
    const ours = '[data-parley-loader] button.launcher';
    await expect.poll(() => box(page, ours)).toEqual({ right: 40, bottom: 100 });
    expect(await zIndex(page, ours)).toBe('10');
    const network = gate(); // the chat comes only after the frame was measured
    await page.route(chatFile, async (route) => {
      await network.held;
      await route.continue();
    });
    await page.locator(ours).evaluate((b: HTMLButtonElement) => b.click());
    expect(await box(page, '[data-parley-loader] .frame')).toEqual({ right: 40, bottom: 172 });
    expect(await zIndex(page, '[data-parley-loader] .frame')).toBe('10');
    network.open();
    await panel(page).waitFor();
    expect(await box(page, '[data-parley] section.panel')).toEqual({ right: 40, bottom: 172 });
    expect(await zIndex(page, '[data-parley] section.panel')).toBe('10');
    await page.keyboard.press('Escape');
    await expect.poll(() => box(page, '[data-parley] button.launcher')).toEqual({ right: 40, bottom: 100 });
    expect(await zIndex(page, '[data-parley] button.launcher')).toBe('10');
    await context.close();

    // A cookie banner's page sets the custom property: the chat goes below it, before and after it loads.
    const next = await openHostPage(world);
    await next.page.evaluate(() => document.documentElement.style.setProperty('--parley-z-index', '7'));
    await next.page.locator(ours).waitFor();
    expect(await zIndex(next.page, ours)).toBe('7');
    await next.page.locator(ours).click();
    await panel(next.page).waitFor();
    expect(await zIndex(next.page, '[data-parley] section.panel')).toBe('7');
    expect(await box(next.page, '[data-parley] section.panel')).toEqual({ right: 20, bottom: 92 });
    expect([...problems, ...next.problems]).toEqual([]);
    await next.context.close();
  });
});
