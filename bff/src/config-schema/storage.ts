// Schema entries: storage (docs/configuration.md's third table).
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WEBHOOK_WINDOW_SEC } from '../lib/webhook-verify.js';
import { setting } from './setting.js';

const group = 'storage' as const;

export const STORAGE = {
  redisUrl: setting({
    env: 'REDIS_URL', group, default: 'unset: process memory',
    doc: 'one Redis (`redis://` or `rediss://`): event logs, fan-out, webhook dedup, rate limits, spent tokens and users are shared by every instance',
    read: (p) => p.redisUrl('REDIS_URL'),
  }),
  redisClusterNodes: setting({
    env: 'REDIS_CLUSTER_NODES', group, default: 'unset',
    doc: 'a Redis Cluster instead (`host:port,host:port…`, seed nodes; the rest is discovered). Keys of one conversation share a hash slot and fan-out uses sharded pub/sub. Not together with `REDIS_URL`',
    read: (p) => p.hostPorts('REDIS_CLUSTER_NODES'),
  }),
  eventRetentionCount: setting({
    env: 'EVENT_RETENTION_COUNT', group, doc: 'events kept per conversation for replay (10–1000000)', default: '`1000`', example: '1000',
    read: (p) => p.int('EVENT_RETENTION_COUNT', 1000, 10, 1_000_000),
  }),
  eventRetentionSec: setting({
    env: 'EVENT_RETENTION_SEC', group, doc: 'and for how long (60 s–365 days)', default: '`604800`', example: '604800',
    read: (p) => p.int('EVENT_RETENTION_SEC', 7 * 86_400, 60, 365 * 86_400),
  }),
  dedupTtlSec: setting({
    env: 'DEDUP_TTL_SEC', group, doc: "how long a webhook's event id is remembered (300 s, the replay window, to 30 days)", default: '`86400`', example: '86400',
    read: (p) => {
      // One range in the one message: below the replay window a replayed webhook would be delivered again.
      return p.int('DEDUP_TTL_SEC', 86_400, WEBHOOK_WINDOW_SEC, 30 * 86_400);
    },
  }),
  spentTokensFile: setting({
    env: 'SPENT_TOKENS_FILE', group,
    doc: 'memory mode: file of spent refresh-token and ticket ids, read at start, so a spent token stays spent after a restart (keep it on a volume across re-deploys). A chosen file that cannot be written stops the server; when the default one cannot (a read-only root), the server keeps them in memory only and logs a warning',
    default: 'a file in the temporary folder named after a hash of `SESSION_JWT_SECRET`; none when that key is random (demo)',
    read: (p) => {
      const key = p.optional('SESSION_JWT_SECRET');
      return p.optional('SPENT_TOKENS_FILE') ?? (key ? defaultSpentTokensFile(key) : undefined);
    },
  }),
};

/**
 * In the temporary folder (it survives a restart of the process), one file per session key: BFFs
 * with other keys cannot use each other's tokens, so they need not share. The name reveals nothing
 * of the key.
 */
function defaultSpentTokensFile(sessionJwtSecret: string): string {
  const name = createHash('sha256').update(`parley spent tokens\n${sessionJwtSecret}`).digest('hex').slice(0, 16);
  return join(tmpdir(), `parley-spent-tokens-${name}`);
}
