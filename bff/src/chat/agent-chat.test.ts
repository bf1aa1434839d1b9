import { afterEach, describe, expect, it, vi } from 'vitest';
import { UpstreamError } from '../errors.js';
import { MemoryEventStore } from '../adapters/memory-store.js';
import type { AgentUpstream, SendInput } from '../ports/upstream.js';
import { silentLogger } from '../logger.js';
import { AgentChat } from './agent-chat.js';

/** Records the send calls the chat makes; the service's other calls are not used here. */
function recordingUpstream(): AgentUpstream & { sends: SendInput[] } {
  const sends: SendInput[] = [];
  const unused = () => Promise.reject(new Error('not used'));
  return { sends, send: async (input) => (sends.push(input), { session: '42' }), listMessages: unused, setUserVariables: unused, escalate: unused, archive: unused };
}

describe('AgentChat', () => {
  it('sends the signed-in user’s verified name as profileName with every message, and none for anonymous ones', async () => {
    const upstream = recordingUpstream();
    const store = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
    const chat = new AgentChat(upstream, store, undefined);
    const started = await chat.startConversation({ text: 'first', profileName: 'Ada' });
    // The stream's copy names its author as history's does (docs/api.md "Event stream").
    expect(started.message).toMatchObject({ role: 'user', author: { kind: 'user' }, text: 'first' });
    await chat.sendMessage('42', { text: 'second', profileName: 'Ada' });
    await chat.sendMessage('42', { text: 'third' });
    expect(upstream.sends.map((s) => [s.message, s.profileName])).toEqual([['first', 'Ada'], ['second', 'Ada'], ['third', undefined]]);
    await store.close();
  });

  it('gives a new conversation the visitor’s language as the LOCALE_VARIABLE user variable, and starts it even when that is refused', async () => {
    const sets: Array<[string, Record<string, unknown>]> = [];
    let refuse = false;
    const upstream = recordingUpstream();
    upstream.setUserVariables = async (session, variables) => {
      if (refuse) throw new Error('variable not defined');
      sets.push([session, variables]);
    };
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const store = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
    await new AgentChat(upstream, store).startConversation({ text: 'Hallo', locale: 'de' });
    expect(sets, 'no LOCALE_VARIABLE: nothing sent').toEqual([]);

    const chat = new AgentChat(upstream, store, { localeVariable: 'locale', logger });
    await chat.startConversation({ text: 'Hallo', locale: 'de-AT' });
    await chat.startConversation({ text: 'Hello' });
    expect(sets).toEqual([['42', { locale: 'de-AT' }]]);
    refuse = true;
    const started = await chat.startConversation({ text: 'Bonjour', locale: 'fr' });
    expect(started.conversationId).toBe('42');
    expect(warnings).toEqual(["the visitor's language was not set upstream"]);
    await store.close();
  });

  describe('a send that may not have reached the service (send_uncertain)', () => {
    afterEach(() => vi.useRealTimers());

    /** A service that takes each message and then loses the answer; its history shows what `history` holds. */
    function lossyUpstream(history: Array<Record<string, unknown>>): AgentUpstream & { reads: number } {
      const upstream = { ...recordingUpstream(), reads: 0 };
      upstream.send = async () => {
        throw new UpstreamError('send_uncertain', 'The connection to the service broke off; this may have been sent');
      };
      upstream.listMessages = async () => (upstream.reads++, history.slice().reverse());
      return upstream;
    }
    const setup = (history: Array<Record<string, unknown>>) => {
      vi.useFakeTimers({ now: Date.parse('2026-11-27T10:00:00Z') });
      const upstream = lossyUpstream(history);
      const store = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 3_600_000, dedupTtlMs: 60_000 });
      return { upstream, store, chat: new AgentChat(upstream, store) };
    };
    const userItem = (id: number, text: string, at: string) => ({ messageId: id, message: text, hbo: 'user', createdAt: Date.parse(at) });

    it('is published with its clientId and the service’s time once the service’s history shows it', async () => {
      const history: Array<Record<string, unknown>> = [];
      const { upstream, store, chat } = setup(history);
      await expect(chat.sendMessage('42', { text: 'are you there?', clientId: 'c_1' })).rejects.toMatchObject({ code: 'send_uncertain' });
      await vi.advanceTimersByTimeAsync(0);
      expect([upstream.reads, await store.read('42', 0, 10)]).toEqual([1, []]); // not there yet (a slow service)
      history.push(userItem(7, 'are you there?', '2026-11-27T10:00:00.300Z'));
      await vi.advanceTimersByTimeAsync(1_000);
      const events = await store.read('42', 0, 10);
      expect(events.map((e) => e.data)).toEqual([
        expect.objectContaining({ role: 'user', text: 'are you there?', clientId: 'c_1', createdAt: '2026-11-27T10:00:00.300Z', author: { kind: 'user' } }),
      ]);
      await vi.advanceTimersByTimeAsync(60_000);
      expect([upstream.reads, (await store.read('42', 0, 10)).length]).toEqual([2, 1]); // looked for no more
      await chat.close();
      await store.close();
    });

    it('is never published when the service does not have it, nor matched to the same words sent before; it is looked for five times, and no more after close', async () => {
      const { upstream, store, chat } = setup([userItem(3, 'yes', '2026-11-27T09:58:00Z')]);
      await expect(chat.sendMessage('42', { text: 'yes', clientId: 'c_2' })).rejects.toMatchObject({ code: 'send_uncertain' });
      await vi.advanceTimersByTimeAsync(60_000);
      expect([upstream.reads, await store.read('42', 0, 10)]).toEqual([5, []]);

      await expect(chat.sendMessage('42', { text: 'yes', clientId: 'c_3' })).rejects.toMatchObject({ code: 'send_uncertain' });
      await chat.close();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(upstream.reads).toBe(5);
      await store.close();
    });

    it('publishes nothing when closed while the history is being read', async () => {
      const { upstream, store, chat } = setup([userItem(5, 'still here?', '2026-11-27T10:00:00.100Z')]);
      let answer!: () => void;
      const read = upstream.listMessages;
      upstream.listMessages = (...args) => new Promise((resolve) => (answer = () => resolve(read(...args))));
      await expect(chat.sendMessage('42', { text: 'still here?', clientId: 'c_4' })).rejects.toMatchObject({ code: 'send_uncertain' });
      await vi.advanceTimersByTimeAsync(0);
      await chat.close();
      answer();
      await vi.advanceTimersByTimeAsync(60_000);
      expect([upstream.reads, await store.read('42', 0, 10)]).toEqual([1, []]);
      await store.close();
    });

    it('two uncertain sends of the same words take two history items, not one twice', async () => {
      const history: Array<Record<string, unknown>> = [];
      const { store, chat } = setup(history);
      for (const clientId of ['c_a', 'c_b']) await expect(chat.sendMessage('42', { text: 'ok', clientId })).rejects.toMatchObject({ code: 'send_uncertain' });
      history.push(userItem(8, 'ok', '2026-11-27T10:00:00.100Z'));
      await vi.advanceTimersByTimeAsync(0);
      expect((await store.read('42', 0, 10)).map((e) => (e.data as { clientId?: string }).clientId)).toEqual(['c_a']);
      history.push(userItem(9, 'ok', '2026-11-27T10:00:00.200Z'));
      await vi.advanceTimersByTimeAsync(1_000);
      expect((await store.read('42', 0, 10)).map((e) => (e.data as { clientId?: string }).clientId)).toEqual(['c_a', 'c_b']);
      await chat.close();
      await store.close();
    });
  });
});
