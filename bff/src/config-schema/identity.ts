// Schema entries: signed-in users and answer feedback (in docs/configuration.md's second table).
import type { Parser } from '../env-parser.js';
import { setting } from './setting.js';

const group = 'browsers' as const;

export const IDENTITY = {
  identitySecret: setting({
    env: 'IDENTITY_SECRET', group, secret: true, default: 'unset',
    doc: "signed-in users ([signed-in-users.md](signed-in-users.md)): HS256 key shared with the site's backend, at least 32 bytes, and not `SESSION_JWT_SECRET` (the site would hold the key of the widget's sessions)",
    read: (p) => atLeast32(p, 'IDENTITY_SECRET'),
  }),
  identityJwksUrl: setting({
    env: 'IDENTITY_JWKS_URL', group, default: 'unset',
    doc: "the site's public keys (RS256, ES256, EdDSA) as a JWKS; cached, fetched again for an unknown `kid`",
    read: (p) => p.url('IDENTITY_JWKS_URL'),
  }),
  identityIssuer: setting({ env: 'IDENTITY_ISSUER', group, doc: "when set, an identity token's `iss` must equal it", default: 'unset', read: (p) => p.optional('IDENTITY_ISSUER') }),
  identityRequired: setting({
    env: 'IDENTITY_REQUIRED', group, doc: '`true`: `POST /api/session` without an identity token is `401 identity_required`', default: '`false`', example: 'false',
    read: (p) => p.bool('IDENTITY_REQUIRED', false),
  }),
  feedbackWebhookUrl: setting({
    env: 'FEEDBACK_WEBHOOK_URL', group, default: 'unset: votes stay in the log and `/metrics`',
    doc: 'where votes on answers are POSTed, signed with `FEEDBACK_WEBHOOK_SECRET`: see [api.md, Engagement](api.md#engagement)',
    read: (p) => p.url('FEEDBACK_WEBHOOK_URL'),
  }),
  feedbackWebhookSecret: setting({
    env: 'FEEDBACK_WEBHOOK_SECRET', group, doc: 'the key that signs the votes (at least 16 bytes, required with the URL)', default: 'unset', secret: true,
    read: (p) => p.optional('FEEDBACK_WEBHOOK_SECRET'),
  }),
  feedbackConcurrency: setting({
    env: 'FEEDBACK_CONCURRENCY', group, default: '`8`', example: '8',
    doc: 'forwards to `FEEDBACK_WEBHOOK_URL` in flight at once (1–256); ten times as many wait, more are dropped',
    read: (p) => p.int('FEEDBACK_CONCURRENCY', 8, 1, 256),
  }),
};

function atLeast32(p: Parser, name: string): string | undefined {
  const value = p.optional(name);
  if (value !== undefined && Buffer.byteLength(value) < 32) p.report(`${name} must be at least 32 bytes`);
  return value;
}
