import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { signWebhook } from '../bff/src/lib/webhook-verify.js';
import { SECRET } from './server-env.mjs';

export { SECRET };

let counter = 0;
/**
 * A fresh `message.added` webhook for `conversation` (about 250 bytes, like a real one), with the
 * headers the service sends: its event id, and the HMAC-SHA256 of `{timestamp}.{body}` under the
 * webhook secret (as the simulator signs them, demo/simulator/webhooks.ts).
 */
export function webhook(conversation: number, text = `Benchmark message ${counter}`) {
  const eventId = `evt_${process.pid}_${++counter}`;
  const body = JSON.stringify({
    event: 'message.added',
    eventId,
    sessionId: conversation,
    createdAt: Date.now(),
    data: { messageId: counter, message: text, hbo: 'bot' },
  });
  const ts = String(Math.floor(Date.now() / 1000));
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
      'x-service-event-id': eventId,
      'x-service-timestamp': ts,
      'x-service-signature': signWebhook(SECRET, ts, body),
    },
  };
}

/** POSTs a body and resolves with the status. */
export function post(agent: Agent, url: URL, body: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Sends signed webhooks with `concurrency` requests in flight for `durationMs`; returns requests/s. */
export async function blast(targets: string[], durationMs: number, concurrency = 64, conversations = 1000): Promise<{ rps: number; requests: number; errors: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const urls = targets.map((t) => new URL('/webhooks/agent', t));
  const end = performance.now() + durationMs;
  let done = 0;
  let errors = 0;
  const worker = async (w: number) => {
    while (performance.now() < end) {
      const { body, headers } = webhook((done % conversations) + 1);
      const status = await post(agent, urls[(done + w) % urls.length]!, body, headers).catch(() => 0);
      if (status === 200) done++;
      else errors++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return { rps: done / seconds, requests: done, errors };
}

/** Percentile of sorted samples. */
export function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Opens a raw SSE connection (cheapest possible client) and resolves once the 200 head arrives.
 * `from` is the loopback source address: one address has about 28,000 ports to connect from
 * (net.ipv4.ip_local_port_range), so more streams than that to one server need several.
 */
export function rawStream(port: number, token: string, onData?: (text: string) => void, from = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    let head = '';
    let open = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      if (open) return onData?.(chunk);
      head += chunk;
      if (!head.includes('\r\n\r\n')) return;
      if (!head.startsWith('HTTP/1.1 200')) return reject(new Error(head.split('\r\n')[0]));
      open = true;
      resolve(socket);
      const rest = head.slice(head.indexOf('\r\n\r\n') + 4);
      if (rest) onData?.(rest);
    });
    socket.on('error', reject);
    socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

/** Resident set size of a process in bytes, from /proc. */
export async function rss(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/**
 * CPU time a process has used so far (all its threads, user + system), in seconds, from /proc.
 * On a machine shared with other work, CPU time per request is steadier than requests per second.
 */
export async function cpuSeconds(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may itself hold spaces; utime and stime are the 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** Kernel clock ticks per second (USER_HZ), 100 on Linux. */
const CLOCK_TICKS = 100;
