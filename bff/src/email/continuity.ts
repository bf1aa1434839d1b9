import type { Message, StoredEvent } from '../../../shared/types.js';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { EmailLedger, Recipient } from '../ports/email-ledger.js';
import type { EventStore } from '../ports/event-store.js';
import { MailError, type MailSender } from '../ports/mail-sender.js';
import type { EmailOutcome } from '../ports/observer.js';
import { composeEmail } from './compose.js';
import type { LinkTokens } from './links.js';

/** The fragment the loader looks for (docs/embedding.md): `#parley-resume=<token>`. */
export const RESUME_FRAGMENT = 'parley-resume=';

const SWEEP_MS = 1000;
const TAKE_PER_SWEEP = 20;
const READ_PAGE = 200;

export interface ContinuityOptions {
  config: Pick<Config, 'emailAfterSec' | 'emailMinIntervalSec' | 'emailFrom' | 'widgetTitle' | 'eventRetentionSec'>;
  /** Where browsers reach the BFF: the unsubscribe link's origin. */
  ownOrigin: string;
  ledger: EmailLedger;
  store: EventStore;
  mailer: MailSender;
  links: LinkTokens;
  logger: Logger;
  onOutcome?: (outcome: EmailOutcome) => void;
  /** Waits between tries of a send the mail server failed (default 2 s, 10 s, 60 s, 5 min). */
  retryDelaysMs?: readonly number[];
  now?: () => number;
}

/** An address as logs may show it: the first letter and the domain (`a…@example.com`). */
export function maskedAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return `${address.slice(0, Math.min(1, at))}…${address.slice(at)}`;
}

/**
 * Emails a visitor the operators' messages they have not seen (docs/api.md "Continuity by email").
 * An operator's message asks for a look at its conversation `EMAIL_AFTER_SEC` later; every
 * instance sweeps the schedule each second, and the ledger hands each due conversation to one of
 * them. Nothing here runs in a request: a webhook only adds to the schedule, and a mail server
 * that fails is retried in the background.
 */
export class Continuity {
  private readonly afterMs: number;
  private readonly intervalMs: number;
  private readonly retentionMs: number;
  private readonly now: () => number;
  private readonly retryDelaysMs: readonly number[];
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private readonly sending = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly options: ContinuityOptions) {
    this.afterMs = options.config.emailAfterSec * 1000;
    this.intervalMs = options.config.emailMinIntervalSec * 1000;
    this.retentionMs = options.config.eventRetentionSec * 1000;
    this.now = options.now ?? Date.now;
    this.retryDelaysMs = options.retryDelaysMs ?? [2_000, 10_000, 60_000, 300_000];
  }

  /** Starts sweeping the schedule. */
  start(): void {
    this.timer ??= setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  /** Stops sweeping and waits for sends under way (their retries end early). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.sweeping;
    await Promise.allSettled([...this.sending]);
    this.options.mailer.close();
  }

  /** Remembers what an email to this conversation needs (address, page, language). Never throws. */
  note(conversationId: string, patch: Recipient): Promise<void> {
    return this.quietly('email recipient not recorded', conversationId, () => this.options.ledger.note(conversationId, patch, this.retentionMs));
  }

  /** No more emails about this conversation to `email` (the unsubscribe link). */
  unsubscribe(conversationId: string, email: string): Promise<void> {
    return this.options.ledger.note(conversationId, { unsubscribed: email }, this.retentionMs);
  }

  recipientOf(conversationId: string): Promise<Recipient | undefined> {
    return this.options.ledger.recipient(conversationId);
  }

  /** An event was stored: an operator's message asks for a look `EMAIL_AFTER_SEC` later. Never throws. */
  stored(conversationId: string, event: StoredEvent): void {
    if (event.event !== 'message' || event.data.role !== 'operator') return;
    void this.quietly('email not scheduled', conversationId, () => this.options.ledger.schedule(conversationId, event.ts + this.afterMs));
  }

  streamOpened(conversationId: string, streamId: string, until: number): void {
    void this.quietly('stream presence not recorded', conversationId, () => this.options.ledger.streamOpened(conversationId, streamId, until));
  }

  streamClosed(conversationId: string, streamId: string): void {
    void this.quietly('stream presence not recorded', conversationId, () => this.options.ledger.streamClosed(conversationId, streamId, this.now()));
  }

  /** One pass over the schedule: every due conversation this instance took is looked at. */
  sweep(): Promise<void> {
    if (this.sweeping || this.closed) return this.sweeping ?? Promise.resolve();
    this.sweeping = (async () => {
      try {
        const due = await this.options.ledger.takeDue(this.now(), TAKE_PER_SWEEP);
        for (const conversationId of due) await this.quietly('email look failed', conversationId, () => this.look(conversationId));
      } catch (err) {
        this.options.logger.warn('email schedule not read', { error: String(err) });
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }

  private async look(conversationId: string): Promise<void> {
    const { ledger } = this.options;
    const recipient = await ledger.recipient(conversationId);
    const email = recipient?.email;
    if (!recipient || email === undefined) return;
    const now = this.now();
    const presence = await ledger.presence(conversationId, now);
    // A stream open now shows the messages. Looked at again when it ends at the latest: an
    // instance that died holding it never closes it, and then the email still goes.
    if (presence.openUntil !== undefined) return ledger.schedule(conversationId, presence.openUntil);
    const { unseen, seen } = await this.unseen(conversationId, recipient.mailedUpTo ?? 0, presence.leftAt ?? 0);
    // Nothing new (an earlier email carried it), or the visitor was back and saw it.
    if (unseen.length === 0) return seen ? this.outcome('seen') : undefined;
    if (recipient.unsubscribed === email) return this.outcome('unsubscribed');
    const claim = await ledger.claimSend(conversationId, now, this.intervalMs);
    // Another email went out within EMAIL_MIN_INTERVAL_SEC: these join the next one.
    if (!claim.granted) return ledger.schedule(conversationId, claim.retryAt);
    const last = unseen[unseen.length - 1]!;
    // Marked before the send: a second look (a later message) never sends these twice.
    await ledger.note(conversationId, { mailedUpTo: last.id }, this.retentionMs);
    this.track(this.deliver(conversationId, recipient, email, unseen.map((e) => e.data as Message)));
  }

  /** The operators' messages after `afterId` stored after the visitor left, and whether some were seen. */
  private async unseen(conversationId: string, afterId: number, leftAt: number): Promise<{ unseen: StoredEvent[]; seen: boolean }> {
    const unseen: StoredEvent[] = [];
    let seen = false;
    for (let after = afterId; ; ) {
      const page = await this.options.store.read(conversationId, after, READ_PAGE);
      for (const e of page) {
        if (e.event !== 'message' || e.data.role !== 'operator') continue;
        if (e.ts > leftAt) unseen.push(e);
        else seen = true;
      }
      if (page.length < READ_PAGE) return { unseen, seen };
      after = page[page.length - 1]!.id;
    }
  }

  private async deliver(conversationId: string, recipient: Recipient, email: string, messages: Message[]): Promise<void> {
    const { config, links, mailer, logger } = this.options;
    const origin = this.options.ownOrigin;
    const unsubscribeToken = await links.unsubscribe(conversationId, email);
    const unsubscribeUrl = `${origin}/api/email/unsubscribe?token=${encodeURIComponent(unsubscribeToken)}`;
    const continueUrl = recipient.pageUrl === undefined ? undefined : `${recipient.pageUrl}#${RESUME_FRAGMENT}${await links.resume(conversationId)}`;
    const composed = composeEmail({ messages, locale: recipient.locale, title: config.widgetTitle, continueUrl, unsubscribeUrl });
    const mail = {
      from: { name: composed.title, address: config.emailFrom! },
      to: email,
      subject: composed.subject,
      text: composed.text,
      html: composed.html,
      // RFC 8058: a mail client's own "unsubscribe" button posts to the link, without a page.
      headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'Auto-Submitted': 'auto-generated' },
    };
    const to = maskedAddress(email);
    for (let attempt = 0; ; attempt++) {
      try {
        await mailer.send(mail);
        logger.info('email sent', { conversationId, to, messages: messages.length });
        return this.outcome('sent');
      } catch (err) {
        const delay = this.retryDelaysMs[attempt];
        const permanent = err instanceof MailError && err.permanent;
        if (permanent || delay === undefined || this.closed) {
          logger.error('email not sent', { conversationId, to, attempts: attempt + 1, permanent, error: String(err) });
          return this.outcome('failed');
        }
        logger.warn('email not sent; trying again', { conversationId, to, attempt: attempt + 1, inMs: delay, error: String(err) });
        this.outcome('retried');
        await new Promise<void>((resolve) => {
          const wait = setTimeout(resolve, delay);
          wait.unref();
        });
      }
    }
  }

  private track(work: Promise<void>): void {
    const done = work.catch((err: unknown) => this.options.logger.error('email not sent', { error: String(err) })).finally(() => this.sending.delete(done));
    this.sending.add(done);
  }

  private outcome(outcome: EmailOutcome): void {
    this.options.onOutcome?.(outcome);
  }

  private async quietly(what: string, conversationId: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      this.options.logger.warn(what, { conversationId, error: String(err) });
    }
  }
}
