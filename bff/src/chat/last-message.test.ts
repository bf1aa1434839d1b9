import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationSummary, Message } from '../../../shared/types.js';
import { MemoryEventStore } from '../adapters/memory-store.js';
import { silentLogger } from '../logger.js';
import type { ChatBackend } from '../ports/chat-backend.js';
import { LAST_MESSAGE_ITEMS, lastMessageOf, withLastMessages } from './last-message.js';

// The last message of a signed-in user's listed conversations (docs/api.md "Signed-in users").
const stores: MemoryEventStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
});

function setUp(history: Record<string, Message[]> = {}) {
  const store = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
  stores.push(store);
  const reads: string[] = [];
  const chat = {
    listMessages: async (id: string, limit: number) => {
      reads.push(id);
      if (id === 'broken') throw new Error('service unavailable');
      return { items: (history[id] ?? []).slice(-limit), hasMore: false };
    },
  } as unknown as ChatBackend;
  return { deps: { store, chat, logger: silentLogger }, store, reads };
}
const summary = (sessionId: string): ConversationSummary => ({ sessionId, title: sessionId, state: 'open', updatedAt: '2026-11-28T18:31:00.000Z' });

describe('lastMessageOf', () => {
  it("reads the conversation's log first: an operator named as the live event named them, no service call", async () => {
    const { deps, store, reads } = setUp();
    await store.append('7', { event: 'message', data: { id: 'u1', role: 'user', author: { kind: 'user' }, text: 'Hi', createdAt: '2026-11-28T18:30:00.000Z' } });
    await store.append('7', { event: 'message', data: { id: 'o1', role: 'operator', author: { kind: 'operator', name: 'Mara Lindqvist', avatarUrl: '/m.svg' }, text: 'Mara here', createdAt: '2026-11-28T18:31:00.000Z' } });
    await store.append('7', { event: 'state', data: { state: 'escalated' } });
    expect(await lastMessageOf(deps, '7')).toEqual({ text: 'Mara here', author: { kind: 'operator', name: 'Mara Lindqvist' }, at: '2026-11-28T18:31:00.000Z' });
    expect(reads).toEqual([]);
  });

  it("falls back to the service's history once the log kept nothing, naming operators as remembered", async () => {
    const { deps, store, reads } = setUp({
      '8': [
        { id: 'b1', role: 'bot', author: { kind: 'bot', name: 'Juniper' }, text: 'Which size?' },
        { id: 'o2', role: 'operator', author: { kind: 'operator' }, text: 'Sent today', createdAt: '2026-11-20T09:00:00.000Z' },
      ],
    });
    await store.rememberAuthor('8', 'o2', { kind: 'operator', name: 'Theo Adeyemi' });
    expect(await lastMessageOf(deps, '8')).toEqual({ text: 'Sent today', author: { kind: 'operator', name: 'Theo Adeyemi' }, at: '2026-11-20T09:00:00.000Z' });
    expect(reads).toEqual(['8']);
  });

  it("gives a rich message's summary, skips a message with nothing to read (a tag, raw JSON), and never names the visitor", async () => {
    const { deps } = setUp({
      '9': [
        { id: 'u1', role: 'user', author: { kind: 'user', name: 'Ada' }, text: '  Where   is\nmy order?  ' },
        { id: 'b1', role: 'bot', author: { kind: 'bot', name: 'Juniper' }, badge: { type: 'buttons', text: 'Pick one', buttons: [{ label: 'Track', value: 'track' }] } } as Message,
        { id: 'b2', role: 'bot', author: { kind: 'bot', name: 'Juniper' }, text: '<br>' },
        { id: 'b3', role: 'bot', author: { kind: 'bot', name: 'Juniper' }, text: '{"type":"unknown"}' },
      ],
      '10': [{ id: 'u1', role: 'user', author: { kind: 'user', name: 'Ada' }, text: '  Where   is\nmy order?  ' }],
    });
    expect(await lastMessageOf(deps, '9')).toEqual({ text: 'Pick one', author: { kind: 'bot', name: 'Juniper' } });
    expect(await lastMessageOf(deps, '10')).toEqual({ text: 'Where is my order?', author: { kind: 'user' } });
  });

  it("shows Markdown's words, not its marks, code or tags, with character references read", async () => {
    const text = '# Your order\n\n| Item | Qty |\n|---|---|\n| Tent & pole | 1 |\n\n```\nnpm i\n```\n> quoted `code` ![tent](https://x.test/t.png) &lt;b&gt; &#x1F3D5; &#7;end `&amp;`';
    const { deps } = setUp({ '11': [{ id: 'b1', role: 'bot', author: { kind: 'bot' }, text }] });
    expect((await lastMessageOf(deps, '11'))!.text).toBe('Your order Item Qty Tent & pole 1 npm i quoted code tent <b> 🏕 end &amp;');
  });
});

describe('withLastMessages', () => {
  it(`fills the newest ${LAST_MESSAGE_ITEMS} conversations; one that cannot be read is listed without it`, async () => {
    const ids = Array.from({ length: LAST_MESSAGE_ITEMS + 2 }, (_, i) => String(100 + i));
    const history = Object.fromEntries(ids.map((id) => [id, [{ id: 'u1', role: 'user', text: `Question ${id}` } as Message]]));
    const { deps, reads } = setUp(history);
    const items = await withLastMessages(deps, [summary('broken'), ...ids.map(summary)]);
    expect(items[0]).toEqual(summary('broken'));
    expect(items[1]!.lastMessage).toEqual({ text: 'Question 100', author: { kind: 'user' } });
    expect(items.filter((c) => c.lastMessage)).toHaveLength(LAST_MESSAGE_ITEMS - 1);
    expect(items.at(-1)).toEqual(summary(ids.at(-1)!));
    expect(reads).toHaveLength(LAST_MESSAGE_ITEMS);
  });
});
