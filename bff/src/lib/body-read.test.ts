import { EventEmitter } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/** A request stand-in: what a body read uses of Node's request. */
function request(parsed: { complete?: boolean; destroyed?: boolean; buffered?: Buffer } = {}): IncomingMessage & EventEmitter {
  const { complete = false, destroyed = false, buffered } = parsed;
  return Object.assign(new EventEmitter(), { headers: {}, complete, destroyed, destroy: vi.fn(), resume: vi.fn(), read: vi.fn(() => buffered ?? null) }) as unknown as IncomingMessage & EventEmitter;
}

describe('readIncomingBody', () => {
  // One fake clock for the file, in place before the body watch (the process's one, made when
  // body-read.js loads) takes its clock, and kept: the watch's timer outlives a test.
  let readIncomingBody: typeof import('./body-read.js').readIncomingBody;
  let BodyRead: typeof import('./body-read.js').BodyRead;
  beforeAll(async () => {
    vi.useFakeTimers();
    ({ readIncomingBody, BodyRead } = await import('./body-read.js'));
  });

  /** A read started in the check phase; what it was told. */
  function checkPhaseRead(req: IncomingMessage) {
    const told: Array<{ err?: string; body?: string }> = [];
    const read = new (class extends BodyRead {
      protected finish(err: Error | undefined, bytes?: Buffer): void {
        told.push(err ? { err: err.message } : { body: bytes!.toString() });
      }
    })(req, 1024, { idleMs: 1500 });
    read.startInCheckPhase();
    return told;
  }

  it('in the check phase, takes a body that is complete with one read(), with no listener; reads any other one as it comes', () => {
    const whole = request({ complete: true, buffered: Buffer.from('{"a":1}') });
    const told = checkPhaseRead(whole);
    expect(told).toEqual([]); // nothing before the check phase
    vi.advanceTimersByTime(0);
    expect(told).toEqual([{ body: '{"a":1}' }]);
    expect(whole.listenerCount('data') + whole.listenerCount('close')).toBe(0);

    const partial = request();
    const later = checkPhaseRead(partial);
    vi.advanceTimersByTime(0);
    partial.emit('data', Buffer.from('{"b":'));
    partial.emit('data', Buffer.from('2}'));
    partial.emit('end');
    expect(later).toEqual([{ body: '{"b":2}' }]);

    const closed = checkPhaseRead(request({ destroyed: true })); // gone before it was complete
    vi.advanceTimersByTime(0);
    expect(closed).toEqual([{ err: 'The request body ended early' }]);
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
