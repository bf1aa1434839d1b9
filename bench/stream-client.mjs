// One client process of the stream benchmarks (started by bench/stream-clients.ts): holds event
// streams open to a BFF through raw sockets, the cheapest client, so that no one process needs
// more open files than its limit. Told over IPC which streams to open; tells the parent when they
// are open, when one drops, and when a benchmark message ("text":"fan-<n>") arrives on stream i,
// with the time it was read from process.hrtime (CLOCK_MONOTONIC: one clock for every process on
// the machine, so the parent can subtract its own send time). Exits when the parent goes.
import { connect } from 'node:net';

/** @type {Map<number, import('node:net').Socket>} */
const sockets = new Map();
let closing = false;
/** Heard frames not yet sent: stream, message number, time (ms), flat. */
let heard = [];
const now = () => Number(process.hrtime.bigint()) / 1e6;
const MESSAGE = /"text":"fan-(\d+)"/g;

function flush() {
  const frames = heard;
  heard = [];
  process.send({ type: 'frames', frames });
}

/** Opens stream `i` and resolves once the 200 head arrives; rejects with the status line otherwise. */
function open({ i, token, from, port }) {
  return new Promise((resolve, reject) => {
    // From 127.0.0.1, the address the kernel picks anyway, the socket is not bound first: connect()
    // finds a free port by the whole address pair at once, while bind() to port 0 searches for one
    // that is free on its own (several seconds of kernel time per 2,000 streams past 6,000 here).
    const socket = connect(from === '127.0.0.1' ? { port, host: '127.0.0.1' } : { port, host: '127.0.0.1', localAddress: from });
    let text = '';
    let isOpen = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      const at = now();
      text += chunk;
      if (!isOpen) {
        const end = text.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!text.startsWith('HTTP/1.1 200')) return reject(new Error(`stream ${i} from ${from}: ${text.split('\r\n')[0]}`));
        isOpen = true;
        sockets.set(i, socket);
        text = text.slice(end + 4);
        resolve();
      }
      // Frames end with a blank line; a message split across reads is matched once it is whole.
      const whole = text.lastIndexOf('\n\n');
      if (whole < 0) return;
      for (const m of text.slice(0, whole).matchAll(MESSAGE)) {
        if (heard.length === 0) setImmediate(flush);
        heard.push(i, Number(m[1]), at);
      }
      text = text.slice(whole + 2);
    });
    socket.on('error', (err) => {
      if (!isOpen) reject(new Error(`stream ${i} from ${from}: ${err.code ?? err.message}`));
    });
    socket.on('close', () => {
      if (!isOpen) return reject(new Error(`stream ${i} from ${from}: closed before its head (the server at its open-file limit?)`));
      sockets.delete(i);
      if (!closing) process.send({ type: 'dropped', i });
    });
    socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

process.on('message', async (msg) => {
  if (msg.type === 'open') {
    try {
      // 200 at a time: a burst of thousands of connects overflows the server's accept backlog.
      for (let k = 0; k < msg.streams.length; k += 200) await Promise.all(msg.streams.slice(k, k + 200).map(open));
      process.send({ type: 'opened', id: msg.id });
    } catch (err) {
      process.send({ type: 'failed', id: msg.id, message: err.message });
    }
  } else if (msg.type === 'close') {
    closing = true;
    for (const socket of sockets.values()) socket.destroy();
    sockets.clear();
    closing = false;
    process.send({ type: 'closed', id: msg.id });
  }
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
