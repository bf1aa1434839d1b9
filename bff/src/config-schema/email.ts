// Schema entries: email to visitors whose operator answered after they left (docs/api.md "Continuity by email").
import type { Parser } from '../env-parser.js';
import { setting } from './setting.js';

const group = 'email' as const;

export const EMAIL = {
  smtpUrl: setting({
    env: 'SMTP_URL', group, secret: true, default: 'unset: no email (demo: a mail catcher in the process, shown at `/outbox`)',
    doc: 'the mail server, `smtp://user:password@host:587` (STARTTLS where the server offers it) or `smtps://user:password@host:465`; user and password URL-encoded',
    read: (p) => readSmtpUrl(p),
  }),
  emailFrom: setting({
    env: 'EMAIL_FROM', group, doc: 'the sender address of those emails, required with `SMTP_URL`; the widget\'s title is the sender\'s name', default: 'unset',
    example: '', read: (p) => p.email('EMAIL_FROM'),
  }),
  emailAfterSec: setting({
    env: 'EMAIL_AFTER_SEC', group, doc: 'how long an operator\'s message waits unseen, with no event stream of its conversation open, before it is emailed (1–86400)', default: '`120` (demo: `20`)', example: '120',
    read: (p) => p.int('EMAIL_AFTER_SEC', 120, 1, 86_400),
  }),
  emailMinIntervalSec: setting({
    env: 'EMAIL_MIN_INTERVAL_SEC', group, doc: 'at most one email per conversation in this time (0–86400); replies in between join the next', default: '`900`', example: '900',
    read: (p) => p.int('EMAIL_MIN_INTERVAL_SEC', 900, 0, 86_400),
  }),
  resumeLinkTtlSec: setting({
    env: 'RESUME_LINK_TTL_SEC', group, doc: 'how long the "continue the conversation" link of an email works (60 s–90 days); it works once', default: '`604800`', example: '604800',
    read: (p) => p.int('RESUME_LINK_TTL_SEC', 604_800, 60, 90 * 86_400),
  }),
};

function readSmtpUrl(p: Parser): string | undefined {
  const raw = p.optional('SMTP_URL');
  if (raw === undefined) return undefined;
  try {
    const url = new URL(raw);
    if ((url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '') return raw;
  } catch {
    // reported below
  }
  p.report('SMTP_URL must be an smtp:// or smtps:// URL with a host');
  return undefined;
}
