// The demo's mail catcher: a real SMTP server in the process (the BFF's SMTP_URL points at it) and
// the Outbox page (`/outbox`) that shows each email as the visitor would get it.
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { escapeHtml } from './static.js';

/** One caught email. */
export interface CaughtMail {
  id: number;
  receivedAt: Date;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Outbox {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  mails: readonly CaughtMail[];
  close(): Promise<void>;
}

const KEEP = 50;

/** Starts the catcher on loopback (nobody else can send through it) and keeps the newest emails. */
export async function startOutbox(): Promise<Outbox> {
  const mails: CaughtMail[] = [];
  let next = 1;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          mails.unshift({
            id: next++,
            receivedAt: mail.date ?? new Date(),
            from: mail.from?.text ?? '',
            to: (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.text ?? '',
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
          });
          mails.length = Math.min(mails.length, KEEP);
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `smtp://127.0.0.1:${port}`, mails, close };
}

/** `/outbox` and each email's HTML at `/outbox/<id>`; `afterSec` is EMAIL_AFTER_SEC, told on the page. */
export function outboxRoutes(mails: readonly CaughtMail[], afterSec: number): Hono {
  const app = new Hono();
  app.get('/outbox', (c) => {
    c.header('content-security-policy', "default-src 'self'; style-src 'self'; img-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'");
    c.header('cache-control', 'no-store');
    return c.html(outboxPage(mails, afterSec));
  });
  // One email's HTML, framed by the Outbox page: sandboxed, no script, its links open in the top window.
  app.get('/outbox/:id', (c) => {
    const mail = mails.find((m) => String(m.id) === c.req.param('id'));
    if (!mail) return c.json({ error: { code: 'not_found', message: 'No such email in the Outbox' } }, 404);
    c.header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; frame-ancestors 'self'; base-uri 'none'; sandbox allow-top-navigation-by-user-activation allow-popups");
    c.header('x-content-type-options', 'nosniff');
    c.header('cache-control', 'no-store');
    return c.html(mail.html.replace(/<head>/i, '<head><base target="_top">'));
  });
  return app;
}

function outboxPage(mails: readonly CaughtMail[], afterSec: number): string {
  const items = mails.map(
    (m) => `<article class="panel mail" aria-labelledby="mail-${m.id}">
      <h2 id="mail-${m.id}">${escapeHtml(m.subject)}</h2>
      <dl class="meta"><dt>From</dt><dd>${escapeHtml(m.from)}</dd><dt>To</dt><dd>${escapeHtml(m.to)}</dd><dt>Received</dt><dd><time datetime="${m.receivedAt.toISOString()}">${escapeHtml(m.receivedAt.toUTCString())}</time></dd></dl>
      <iframe class="mail-html" src="/outbox/${m.id}" title="The email as its recipient sees it: ${escapeHtml(m.subject)}" sandbox="allow-top-navigation-by-user-activation allow-popups"></iframe>
      <details><summary>Plain-text version</summary><pre>${escapeHtml(m.text)}</pre></details>
    </article>`,
  );
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Outbox · Nimbus Outdoor (Parley demo)</title>
  <link rel="icon" href="/demo/assets/logo.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/demo/site/app.css">
</head>
<body class="app">
  <header class="bar">
    <h1><a class="brand" href="/outbox"><img src="/demo/assets/logo.svg" alt="" width="28" height="28"> Outbox</a></h1>
    <span class="sub">Emails the BFF sent to visitors, caught by the demo's own mail server.</span>
    <nav><a href="/" target="_blank" rel="noopener">Shop</a><a href="/console" target="_blank" rel="noopener">Operator console</a><a href="/inspector" target="_blank" rel="noopener">Webhook inspector</a></nav>
  </header>
  <main class="outbox">
    <p class="hint">In the shop, leave your email in the chat (the form appears while the team is away, or ask for a person), close the tab, answer in the console, and after ${afterSec} seconds the email is here. Its button continues the conversation in the shop. <a href="/outbox">Refresh</a></p>
    ${items.length ? items.join('\n') : '<p class="empty">No emails yet.</p>'}
  </main>
</body>
</html>`;
}
