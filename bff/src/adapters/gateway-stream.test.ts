import { describe, expect, it } from 'vitest';
import { UpstreamError } from '../errors.js';
import { readChatStream } from './gateway-stream.js';

const encoder = new TextEncoder();

function streamOf(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    pull(controller) {
      const next = pieces.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

/** The same bytes cut at `cuts` (byte offsets). */
function cutAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const out: Uint8Array[] = [];
  let from = 0;
  for (const c of [...cuts, bytes.length]) {
    out.push(bytes.subarray(from, c));
    from = c;
  }
  return out;
}

async function collect(body: ReadableStream<Uint8Array>, options = {}): Promise<string[]> {
  const out: string[] = [];
  for await (const d of readChatStream(body, options)) out.push(d);
  return out;
}

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}`;

describe('readChatStream', () => {
  const reply = 'Grüße — 你好 👋 done';
  const words = reply.match(/\S+\s*/g)!;
  const body = [chunk('', null).replace('"content":""', '"role":"assistant","content":""'), ...words.map((w) => chunk(w)), chunk('', 'stop'), 'data: [DONE]'].join('\n\n') + '\n\n';
  const bytes = encoder.encode(body);

  it('yields the deltas in order for every single cut position, multi-byte characters included', async () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      const deltas = await collect(streamOf(cutAt(bytes, [cut])));
      expect(deltas.join(''), `cut at byte ${cut}`).toBe(reply);
    }
  });

  it('survives one byte per chunk', async () => {
    const pieces = Array.from(bytes, (b) => Uint8Array.of(b));
    expect((await collect(streamOf(pieces))).join('')).toBe(reply);
  });

  it('stops at [DONE] even if the connection stays open', async () => {
    const open = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(encoder.encode(`${chunk('hi')}\n\ndata: [DONE]\n\n`));
      },
    });
    expect(await collect(open)).toEqual(['hi']);
  });

  it('accepts a stream that ends after a finish_reason without [DONE]', async () => {
    expect(await collect(streamOf([encoder.encode(`${chunk('a')}\n\n${chunk('b', 'stop')}\n\n`)]))).toEqual(['a', 'b']);
  });

  it('reports a stream that just stops as cut off', async () => {
    await expect(collect(streamOf([encoder.encode(`${chunk('half a rep')}\n\n`)]))).rejects.toMatchObject({ code: 'upstream_error', message: expect.stringMatching(/cut off/) });
  });

  it('turns an in-band quota error into budget_exhausted and other errors into upstream_error', async () => {
    const quota = `data: ${JSON.stringify({ error: { type: 'insufficient_quota', message: 'You exceeded your current quota' } })}\n\n`;
    await expect(collect(streamOf([encoder.encode(quota)]))).rejects.toMatchObject({ code: 'budget_exhausted' });
    const other = `data: ${JSON.stringify({ error: { type: 'server_error', message: 'overloaded' } })}\n\n`;
    await expect(collect(streamOf([encoder.encode(other)]))).rejects.toMatchObject({ code: 'upstream_error' });
  });

  it('refuses unreadable chunks instead of silently losing text', async () => {
    await expect(collect(streamOf([encoder.encode('data: {"choices": [\n\n')]))).rejects.toBeInstanceOf(UpstreamError);
  });

  it('reports a stalled stream as upstream_timeout', async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(encoder.encode(`${chunk('a')}\n\n`));
      },
    });
    const started = Date.now();
    await expect(collect(stalled, { idleMs: 50 })).rejects.toMatchObject({ code: 'upstream_timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops when its signal aborts', async () => {
    const ctrl = new AbortController();
    const endless = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(encoder.encode(`${chunk('a')}\n\n`));
      },
    });
    const seen: string[] = [];
    const run = (async () => {
      for await (const d of readChatStream(endless, { signal: ctrl.signal })) {
        seen.push(d);
        ctrl.abort();
      }
    })();
    await expect(run).rejects.toBeInstanceOf(UpstreamError);
    expect(seen).toEqual(['a']);
  });

  it('takes a last [DONE] that lacks its blank line, as some OpenAI-compatible servers send it', async () => {
    const text = [chunk('Hi'), 'data: [DONE]'].join('\n\n') + '\n';
    expect(await collect(streamOf([encoder.encode(text)]))).toEqual(['Hi']);
  });
});
