/** One email as the mail library takes it. */
export interface Mail {
  from: { name: string; address: string };
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** Sends one email; rejects with `MailError` when the mail server refuses it or cannot be reached. */
export interface MailSender {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** A send that failed. `permanent`: the server refused the message itself (5xx); a retry would be refused too. */
export class MailError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'MailError';
  }
}
