import { UpstreamError } from '../errors.js';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { parseStreamChunk, saysCreditExhausted } from './gateway-shapes.js';

export interface ReadChatStreamOptions {
  /** Longest silence between two chunks before the reply counts as stalled (ms). */
  idleMs?: number;
  /** Stops reading early (e.g. shutdown); the generator then throws. */
  signal?: AbortSignal;
}

/**
 * Turns the body of a streamed chat completion (`data: {chunk}` lines, then `data: [DONE]`) into
 * text deltas. Bytes may be cut anywhere: inside a UTF-8 character, a line, or a `\r\n`.
 * The reply counts as complete on `[DONE]` or a chunk with `finish_reason`; a stream that just
 * stops is reported as cut off, so a half reply is never passed off as a whole one.
 */
export async function* readChatStream(body: ReadableStream<Uint8Array>, options: ReadChatStreamOptions = {}): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  // eventsource-parser applies the WHATWG rules (lines cut anywhere, even inside `\r\n`); decode
  // bytes with a streaming TextDecoder first, so a character split across chunks stays whole.
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => void events.push(event) });
  let stalled = false;
  let complete = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (!options.idleMs) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      void reader.cancel().catch(() => {});
    }, options.idleMs);
  };
  const onAbort = () => void reader.cancel().catch(() => {});
  options.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    arm();
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (cause) {
        throw new UpstreamError('upstream_unavailable', 'The connection to the model broke mid-reply', { cause });
      }
      if (stalled) throw new UpstreamError('upstream_timeout', 'The model stopped answering mid-reply');
      if (options.signal?.aborted) throw new UpstreamError('upstream_unavailable', 'The reply was stopped');
      arm();
      events.length = 0;
      if (result.done) {
        // Unlike a browser, take a last event that lacks its closing blank line: some
        // OpenAI-compatible servers end on `data: [DONE]\n` alone. Blank lines after a complete event do nothing.
        parser.feed(decoder.decode() + '\n\n');
      } else {
        parser.feed(decoder.decode(result.value, { stream: true }));
      }
      for (const event of events) {
        const data = event.data.trim();
        if (data === '[DONE]') {
          complete = true;
          return;
        }
        if (data === '' || event.event === 'ping') continue;
        const chunk = parseStreamChunk(parseJson(data));
        if (chunk.error) {
          const credit = saysCreditExhausted(JSON.stringify({ error: chunk.error }));
          throw credit
            ? new UpstreamError('budget_exhausted', 'The AI credit is used up, so no reply can be written right now')
            : new UpstreamError('upstream_error', 'The model failed while writing its reply');
        }
        if (chunk.delta) yield chunk.delta;
        if (chunk.finished) complete = true;
      }
      if (result.done) {
        if (!complete) throw new UpstreamError('upstream_error', 'The model reply was cut off');
        return;
      }
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    // Also reached on `[DONE]` before the body ends and when the consumer stops early: free the connection.
    void reader.cancel().catch(() => {});
  }
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch (cause) {
    throw new UpstreamError('upstream_error', 'The model sent an unreadable stream', { cause });
  }
}
