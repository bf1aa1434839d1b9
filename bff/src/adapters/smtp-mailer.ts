import nodemailer, { type Transporter } from 'nodemailer';
import { MailError, type Mail, type MailSender } from '../ports/mail-sender.js';

/**
 * Email over SMTP with nodemailer: `smtp://` upgrades with STARTTLS where the server offers it,
 * `smtps://` speaks TLS from the start; user and password come from the URL. Connections are
 * pooled, so a burst of emails does not open one connection each.
 */
export class SmtpMailer implements MailSender {
  private readonly transport: Transporter;

  constructor(smtpUrl: string, options: { timeoutMs?: number } = {}) {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const url = new URL(smtpUrl);
    this.transport = nodemailer.createTransport({
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port === '' ? (url.protocol === 'smtps:' ? 465 : 587) : Number(url.port),
      secure: url.protocol === 'smtps:',
      ...(url.username !== '' && { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
      pool: true,
      maxConnections: 2,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  }

  async send(mail: Mail): Promise<void> {
    try {
      await this.transport.sendMail(mail);
    } catch (cause) {
      const code = (cause as { responseCode?: unknown }).responseCode;
      const permanent = typeof code === 'number' && code >= 500 && code < 600;
      throw new MailError(`mail server: ${cause instanceof Error ? cause.message : String(cause)}`, permanent, { cause });
    }
  }

  close(): void {
    this.transport.close();
  }
}
