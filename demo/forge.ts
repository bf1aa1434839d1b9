import { randomUUID } from 'node:crypto';
import type { Simulator } from './simulator/index.js';
import { signWebhook } from './simulator/webhooks.js';

/** The attacks the demo can stage against the BFF's webhook endpoint. */
export const FORGE_KINDS = ['unsigned', 'bad_signature', 'stale', 'replay'] as const;
export type ForgeKind = (typeof FORGE_KINDS)[number];

export interface ForgeResult {
  kind: ForgeKind;
  /** What the BFF answered, or `'error'` when it could not be reached. */
  status: number | 'error';
  eventId?: string;
  /** One sentence for the stakeholder: what was sent and what should happen. */
  explanation: string;
}

const EXPLAIN: Record<ForgeKind, string> = {
  unsigned: 'A webhook with no signature headers at all. The BFF must refuse it (401) and store nothing.',
  bad_signature: 'A webhook signed with a guessed secret. The HMAC does not match, so the BFF refuses it (401).',
  stale: 'A correctly signed webhook whose timestamp is 10 minutes old: a replay outside the 5-minute window (401).',
  replay: 'The latest real event again, freshly signed. It is authentic, so the BFF answers 200, but drops the duplicate.',
};

/**
 * Sends a forged or replayed webhook to the BFF, server-side, so the inspector can show it
 * being rejected. The fake message is a phishing lure: if it ever reached a chat, that would be a bug.
 */
export async function forgeWebhook(kind: ForgeKind, deps: { simulator: Simulator; target: string; fetch?: typeof fetch }): Promise<ForgeResult> {
  if (kind === 'replay') {
    const record = await deps.simulator.redeliver();
    if (!record) return { kind, status: 'error', explanation: 'Nothing to replay yet: chat with the assistant first.' };
    return { kind, status: record.status, eventId: record.eventId, explanation: EXPLAIN.replay };
  }
  const sessionId = deps.simulator.conversations()[0]?.id ?? 1001;
  const eventId = `evt_forged_${randomUUID()}`;
  const body = JSON.stringify({
    event: 'message.added',
    eventId,
    sessionId,
    createdAt: Date.now(),
    data: {
      messageId: `forged-${Date.now()}`,
      hbo: 'operator',
      username: 'Nimbus Support',
      message: '🎁 Congratulations! You won a free Cirrus tent. Confirm your card details at https://nimbus-prizes.example/claim',
    },
  });
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-service-event-id': eventId };
  if (kind !== 'unsigned') {
    const seconds = Math.floor(Date.now() / 1000) - (kind === 'stale' ? 600 : 0);
    const timestamp = String(seconds);
    headers['x-service-timestamp'] = timestamp;
    headers['x-service-signature'] =
      kind === 'stale' ? deps.simulator.signWebhook(timestamp, body) : signWebhook('guessed-secret', timestamp, body);
  }
  try {
    const res = await (deps.fetch ?? fetch)(deps.target, { method: 'POST', headers, body, signal: AbortSignal.timeout(5000) });
    await res.body?.cancel().catch(() => {});
    return { kind, status: res.status, eventId, explanation: EXPLAIN[kind] };
  } catch {
    return { kind, status: 'error', eventId, explanation: `The BFF could not be reached at ${deps.target}.` };
  }
}
