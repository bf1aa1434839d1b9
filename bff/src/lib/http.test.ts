import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/** A request stand-in: what a body read uses of Node's request. */
function request(): IncomingMessage & EventEmitter {
  return Object.assign(new EventEmitter(), { headers: {}, complete: false, destroy: vi.fn(), resume: vi.fn() }) as unknown as IncomingMessage & EventEmitter;
}

describe('readIncomingBody', () => {
  // One fake clock for the file, in place before the body watch (the process's one, made when
  // http.js loads) takes its clock, and kept: the watch's timer outlives a test.
  let readIncomingBody: typeof import('./http.js').readIncomingBody;
  beforeAll(async () => {
    vi.useFakeTimers();
    ({ readIncomingBody } = await import('./http.js'));
  });
  afterAll(() => vi.useRealTimers());

  it('counts the idle limit from the last chunk, the first one too', async () => {
    const req = request();
    const read = readIncomingBody(req, 1024, { idleMs: 1500 });
    vi.advanceTimersByTime(1000);
    req.emit('data', Buffer.from('{"a":'));
    vi.advanceTimersByTime(1000); // the watch looks at 2 s: 1 s since the first chunk, not 2 s since the start
    expect(req.destroy).not.toHaveBeenCalled();
    req.emit('data', Buffer.from('1}'));
    req.emit('end');
    expect(Buffer.from(await read).toString()).toBe('{"a":1}');
  });

  it('cuts a body whose bytes stop', async () => {
    const req = request();
    const read = readIncomingBody(req, 1024, { idleMs: 1500 });
    req.emit('data', Buffer.from('{"a":'));
    vi.advanceTimersByTime(2000);
    await expect(read).rejects.toThrow(/no body bytes for 1500 ms/);
    expect(req.destroy).toHaveBeenCalledOnce();
  });
});
