import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisAdapters, type RedisAdapters } from '../../bff/src/adapters/redis.js';
import { SmtpMailer } from '../../bff/src/adapters/smtp-mailer.js';
import { Continuity } from '../../bff/src/email/continuity.js';
import { LinkTokens } from '../../bff/src/email/links.js';
import { createLogger } from '../../bff/src/logger.js';
import { startMailServer, type TestMailServer } from '../helpers/mail-server.js';
import { until } from '../helpers/wait.js';
import { skipRedisTests, startRedisServer, type TestRedis } from './redis-server.js';

const RETENTION = { maxEvents: 1000, maxAgeMs: 3_600_000, dedupTtlMs: 3_600_000 };
const CONFIG = { emailAfterSec: 1, emailMinIntervalSec: 60, emailFrom: 'chat@shop.example', widgetTitle: 'Shop', eventRetentionSec: 3600 };

// Two instances of one deployment on one Redis, each sweeping the shared schedule: every
// conversation gets exactly one email, and a visitor back on either instance gets none.
describe.skipIf(skipRedisTests)('emails across two instances on Redis', () => {
  let redis: TestRedis;
  let mail: TestMailServer;
  const adapters: RedisAdapters[] = [];
  const instances: Continuity[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    mail = await startMailServer();
    const prefix = `test-${randomUUID()}:`;
    for (let n = 0; n < 2; n++) {
      const storage = await createRedisAdapters(redis.url, RETENTION, { prefix });
      adapters.push(storage);
      const continuity = new Continuity({
        config: CONFIG,
        ownOrigin: 'https://chat.shop.example',
        ledger: storage.emailLedger,
        store: storage.store,
        mailer: new SmtpMailer(mail.url),
        links: new LinkTokens('test-secret-0123456789-0123456789', 3600),
        logger: createLogger('silent'),
      });
      continuity.start();
      instances.push(continuity);
    }
  });
  afterAll(async () => {
    await Promise.all(instances.map((c) => c.close()));
    await Promise.all(adapters.map((a) => a.close()));
    await mail?.stop();
    await redis?.stop();
  });

  /** An operator's message stored through instance `n`, as its webhook would. */
  async function operatorMessage(n: number, conversationId: string, text: string): Promise<void> {
    const result = await adapters[n]!.store.append(conversationId, { event: 'message', data: { id: randomUUID(), role: 'operator', text } });
    if (result.status !== 'stored') throw new Error('not stored');
    instances[n]!.stored(conversationId, result.event);
  }

  /**
   * Resolves once every look due before now has run, on both instances: an email asked for now goes
   * out after them (the schedule is taken in due order). Instead of waiting a while for nothing.
   */
  let markers = 0;
  async function looksDone(): Promise<void> {
    const c = `marker${++markers}-${randomUUID()}`;
    await instances[0]!.note(c, { email: `${c}@example.com` });
    await operatorMessage(1, c, 'marker');
    await until('the marker email', () => mail.recipients.some(([address]) => address === `${c}@example.com`), 10_000);
  }
  const withoutMarkers = () => mail.received.filter((m) => !m.text?.includes('marker'));

  it('sends each email once, whichever instance took the webhooks', async () => {
    const conversations = Array.from({ length: 8 }, () => `c-${randomUUID()}`);
    for (const [i, c] of conversations.entries()) {
      await instances[i % 2]!.note(c, { email: `${c}@example.com`, pageUrl: 'https://shop.example/' });
      await operatorMessage(i % 2, c, 'one');
      await operatorMessage((i + 1) % 2, c, 'two');
    }
    await until('an email per conversation', () => mail.received.length >= conversations.length, 10_000);
    await looksDone(); // nothing else goes out
    const to = mail.recipients.map(([address]) => address).filter((address) => !address?.startsWith('marker'));
    expect(to.sort()).toEqual(conversations.map((c) => `${c}@example.com`).sort());
    for (const m of withoutMarkers()) expect(m.text).toMatch(/Our team:\none\n\nOur team:\ntwo/);
    expect(withoutMarkers()).toHaveLength(conversations.length);
  });

  it('sends nothing while the visitor has a stream open on the other instance', async () => {
    const c = `c-${randomUUID()}`;
    const before = mail.received.length;
    await instances[0]!.note(c, { email: `${c}@example.com` });
    await adapters[1]!.emailLedger.streamOpened(c, 'stream-on-b', Date.now() + 60_000);
    await operatorMessage(0, c, 'while you are here');
    await looksDone();
    expect(mail.recipients.slice(before).map(([address]) => address)).toEqual([expect.stringMatching(/^marker/)]);
  });
});
