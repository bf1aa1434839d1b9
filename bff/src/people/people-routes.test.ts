import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webhookDeps } from '../../../test/helpers/webhook-deps.js';
import { createApp } from '../app.js';
import { MemoryEventStore } from '../adapters/memory-store.js';
import { signWebhook } from '../lib/webhook-verify.js';

const SECRET = 'people-webhook-secret-long';

function signed(body: unknown) {
  const raw = JSON.stringify(body);
  const ts = String(Date.now());
  return { method: 'POST', body: raw, headers: { 'content-type': 'application/json', 'x-service-timestamp': ts, 'x-service-signature': signWebhook(SECRET, ts, raw) } };
}

function appWith(env: Record<string, string>, now?: () => number) {
  const store = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
  return { store, app: createApp(webhookDeps({ secret: SECRET, store, env, ...(now && { now }) })) };
}

describe('authors on message events', () => {
  it('names operators from OPERATOR_PROFILES (a file), by username without case, and the bot from WIDGET_BOT_*', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'people-')), 'profiles.json');
    writeFileSync(file, JSON.stringify({ ada: { name: 'Ada Lovelace', avatarUrl: '/assets/ada.svg' } }));
    const { app, store } = appWith({ OPERATOR_PROFILES: file, WIDGET_BOT_NAME: 'Parley', WIDGET_BOT_AVATAR: 'https://cdn.example/bot.svg' });
    const messages = [
      { messageId: 1, message: 'Hello', hbo: 'operator', username: 'Ada' },
      { messageId: 2, message: 'Hi there', hbo: 'operator', username: 'grace' },
      { messageId: 3, message: 'I am the bot', hbo: 'bot' },
    ];
    for (const [i, data] of messages.entries()) {
      expect((await app.request('/webhooks/agent', signed({ event: 'message.added', eventId: `a-${i}`, sessionId: 7, data }))).status).toBe(200);
    }
    const stored = (await store.read('7', 0, 10)).map((e) => (e.data as { author: unknown }).author);
    expect(stored).toEqual([
      { kind: 'operator', name: 'Ada Lovelace', avatarUrl: '/assets/ada.svg' },
      { kind: 'operator', name: 'grace' },
      { kind: 'bot', name: 'Parley', avatarUrl: 'https://cdn.example/bot.svg' },
    ]);
  });
});

describe('GET /api/config: bot, handoff, starters', () => {
  it('says open with the reply time while inside SUPPORT_HOURS, and the starters and bot', async () => {
    const { app } = appWith(
      { SUPPORT_HOURS: 'Mon-Fri 09:00-17:30', SUPPORT_TIMEZONE: 'Europe/Berlin', WIDGET_STARTERS: 'Where is my order? | Returns|Talk about pricing', WIDGET_BOT_NAME: 'Parley' },
      () => Date.parse('2026-11-25T10:00:00Z'),
    );
    const body = await (await app.request('/api/config')).json();
    expect(body.handoff).toEqual({ offer: 'always', open: true, replyTime: 'minutes', launcher: 'show' });
    expect(body.starters).toEqual(['Where is my order?', 'Returns', 'Talk about pricing']);
    expect(body.bot).toEqual({ name: 'Parley' });
  });

  it('says closed and when the team is back outside them, with the configured offer and launcher', async () => {
    const { app } = appWith(
      { SUPPORT_HOURS: 'Mon-Fri 09:00-17:30', SUPPORT_TIMEZONE: 'Europe/Berlin', ESCALATION_OFFER: 'after_first_message', CLOSED_LAUNCHER: 'hide', SUPPORT_REPLY_TIME: 'hour' },
      () => Date.parse('2026-11-28T12:00:00Z'), // Saturday
    );
    const body = await (await app.request('/api/config')).json();
    expect(body.handoff).toEqual({ offer: 'after_first_message', open: false, opensAt: '2026-11-30T08:00:00.000Z', replyTime: 'hour', launcher: 'hide' });
    expect(body.starters).toBeUndefined();
  });

  it('sends starters given by language as an object of lists', async () => {
    const body = await (await appWith({ WIDGET_STARTERS: '{"en":"Where is my order? | Returns","de":"Wo ist meine Bestellung?"}' }).app.request('/api/config')).json();
    expect(body.starters).toEqual({ en: ['Where is my order?', 'Returns'], de: ['Wo ist meine Bestellung?'] });
  });

  it('is always open without SUPPORT_HOURS', async () => {
    const body = await (await appWith({}).app.request('/api/config')).json();
    expect(body.handoff).toMatchObject({ open: true, offer: 'always' });
  });
});
