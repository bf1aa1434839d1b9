import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../adapters/memory-store.js';
import type { CompletionRequest, ModelGateway } from '../ports/gateway.js';
import { ModelChat } from './model-chat.js';

/** A gateway that sends two deltas, then hangs until the request is aborted. */
function hangingGateway(): ModelGateway & { started: Promise<void> } {
  let started!: () => void;
  return {
    region: 'eu',
    model: 'test/model',
    started: new Promise<void>((resolve) => (started = resolve)),
    async *streamChatCompletion({ signal }: CompletionRequest) {
      yield 'Half ';
      yield 'an answer';
      started();
      await new Promise((_, reject) => signal!.addEventListener('abort', () => reject(new Error('aborted'))));
    },
  };
}

describe('ModelChat.close', () => {
  it('closes a reply cut off by shutdown with its text so far and an error event', async () => {
    const store = new MemoryEventStore({ maxEvents: 100, maxAgeMs: 60_000, dedupTtlMs: 60_000 });
    const gateway = hangingGateway();
    const chat = new ModelChat(gateway, store, { systemPrompt: '', maxHistory: 10, maxTokens: 100, coalesce: { maxChars: 1, maxDelayMs: 0 } });
    const { conversationId } = await chat.startConversation({ text: 'Hello' });
    await gateway.started;
    await chat.close();

    const events = await store.read(conversationId, 0, 100);
    const deltas = events.filter((e) => e.event === 'message_delta');
    expect(deltas.length).toBeGreaterThan(0);
    const last = events.slice(-2);
    expect(last.map((e) => e.event)).toEqual(['message', 'error']);
    expect(last[0]!.data).toMatchObject({ id: (deltas[0]!.data as { id: string }).id, role: 'bot', text: 'Half an answer' });
    expect(last[1]!.data).toEqual({ code: 'upstream_unavailable', message: expect.any(String) });
    await store.close();
  });
});
