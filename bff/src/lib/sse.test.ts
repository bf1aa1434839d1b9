import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { frame, Heartbeat, HEARTBEAT_SLICE_MS, MAX_BUFFERED_BYTES, nodeSink, webSink, type SseSink } from './sse.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

describe('SSE writer', () => {
  it('frames an event as id, event and one JSON data line', () => {
    expect(frame(3, 'message', { text: 'a\nb' })).toBe('id: 3\nevent: message\ndata: {"text":"a\\nb"}\n\n');
  });

  it('cuts off a reader that stops reading instead of buffering without bound', async () => {
    let sink!: SseSink;
    const closed = new Promise<void>((resolve) => {
      server = createServer((_req, res) => {
        sink = nodeSink(res, {});
        sink.onClose(resolve);
        const chunk = `data: ${'x'.repeat(64 * 1024)}\n\n`;
        // Far more than socket buffers plus MAX_BUFFERED_BYTES: must end with a refusal.
        const timer = setInterval(() => {
          for (let i = 0; i < 16; i++) if (!sink.write(chunk)) return clearInterval(timer);
        }, 5);
      }).listen(0, '127.0.0.1');
    });
    await new Promise((r) => server!.once('listening', r));
    const socket = connect((server!.address() as AddressInfo).port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.pause(); // a reader that never reads
    await closed;
    expect(sink.closed).toBe(true);
    expect(sink.write('data: more\n\n')).toBe(false);
    socket.destroy();
    expect(MAX_BUFFERED_BYTES).toBeLessThanOrEqual(1024 * 1024);
  });

  it('a single frame larger than the buffer cap reaches a reader that reads (a message as large as a webhook)', async () => {
    const big = frame(1, 'message', { text: 'x'.repeat(MAX_BUFFERED_BYTES + 256 * 1024) });
    let sink!: SseSink;
    server = createServer((_req, res) => {
      sink = nodeSink(res, {});
      expect(sink.write(big)).toBe(true);
      sink.close();
    }).listen(0, '127.0.0.1');
    await new Promise((r) => server!.once('listening', r));
    const res = await fetch(`http://127.0.0.1:${(server!.address() as AddressInfo).port}/`);
    expect(await res.text()).toBe(big);

    const { sink: web, response } = webSink({});
    expect(web.write(big)).toBe(true);
    web.close();
    expect(await response.text()).toBe(big);
  });

  it('a client that left before the stream opened ends it at once (nothing stays subscribed)', async () => {
    const ended = new Promise<boolean>((resolve) => {
      server = createServer((_req, res) => {
        // As the route does while it awaits the store: the client is gone by the time the sink opens.
        res.on('close', () => {
          const sink = nodeSink(res, {});
          sink.onClose(() => resolve(sink.closed));
        });
      }).listen(0, '127.0.0.1');
    });
    await new Promise((r) => server!.once('listening', r));
    const socket = connect((server!.address() as AddressInfo).port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    setTimeout(() => socket.destroy(), 50);
    expect(await ended).toBe(true);
  });

  it('a web stream whose request was aborted already is closed at once', () => {
    const controller = new AbortController();
    controller.abort();
    const { sink } = webSink({}, controller.signal);
    let told = false;
    sink.onClose(() => (told = true));
    expect([sink.closed, told, sink.write('data: x\n\n')]).toEqual([true, true, false]);
  });

  it('one heartbeat timer writes a comment to every open stream and forgets closed ones', async () => {
    const written: string[] = [];
    const fake = (): SseSink => {
      const cbs: Array<() => void> = [];
      let closed = false;
      return {
        get closed() {
          return closed;
        },
        write: (t) => (written.push(t), true),
        close: () => ((closed = true), cbs.forEach((cb) => cb())),
        onClose: (cb) => void cbs.push(cb),
      };
    };
    const hb = new Heartbeat(20);
    const a = fake();
    const b = fake();
    hb.add(a);
    hb.add(b);
    await new Promise((r) => setTimeout(r, 30));
    expect(written.filter((w) => w === ':\n\n').length).toBeGreaterThanOrEqual(2);
    b.close();
    expect(hb.size).toBe(1);
    hb.closeAll();
    expect(a.closed).toBe(true);
  });

  it('spreads the heartbeat over its interval: each stream once per interval, a slice of them at a time', () => {
    vi.useFakeTimers();
    try {
      const beats = new Map<number, number>();
      const sink = (n: number): SseSink => ({ closed: false, write: () => (beats.set(n, (beats.get(n) ?? 0) + 1), true), close() {}, onClose() {} });
      const hb = new Heartbeat(1000); // 10 slices of 100 ms
      for (let n = 0; n < 300; n++) hb.add(sink(n));
      const perFiring: number[] = [];
      for (let t = 0; t < 1000; t += HEARTBEAT_SLICE_MS) {
        const before = [...beats.values()].reduce((a, b) => a + b, 0);
        vi.advanceTimersByTime(HEARTBEAT_SLICE_MS);
        perFiring.push([...beats.values()].reduce((a, b) => a + b, 0) - before);
      }
      // Not 300 writes in one turn of the event loop, which would hold up every request behind it.
      expect(perFiring).toEqual(Array(10).fill(30));
      expect([...beats.values()].every((count) => count === 1)).toBe(true);
      expect(beats.size).toBe(300);
      hb.closeAll();
    } finally {
      vi.useRealTimers();
    }
  });
});
