import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A real SMTP server in the test process: what it received, parsed; it can refuse the next messages. */
export interface TestMailServer {
  url: string;
  received: ParsedMail[];
  /** The envelope recipients of each received message, in order. */
  recipients: string[][];
  /** Answers the next `n` messages with `451` (a temporary failure: the sender should retry). */
  failNext(n: number): void;
  /** Messages refused so far. */
  refused: number;
  stop(): Promise<void>;
}

export async function startMailServer(): Promise<TestMailServer> {
  let failing = 0;
  const state = { received: [] as ParsedMail[], recipients: [] as string[][], refused: 0 };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (failing > 0) {
          failing--;
          state.refused++;
          const err = Object.assign(new Error('Try again later'), { responseCode: 451 });
          return callback(err);
        }
        simpleParser(Buffer.concat(chunks)).then(
          (mail) => {
            state.received.push(mail);
            state.recipients.push(session.envelope.rcptTo.map((r) => r.address));
            callback();
          },
          (err: Error) => callback(err),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    get received() {
      return state.received;
    },
    get recipients() {
      return state.recipients;
    },
    get refused() {
      return state.refused;
    },
    failNext(n) {
      failing = n;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
