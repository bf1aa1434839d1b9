import { describe, expect, it } from 'vitest';
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
});
