import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileOnceStore } from '../../bff/src/adapters/file-once-store.js';
import { MemoryUserDirectory } from '../../bff/src/adapters/memory-users.js';
import { MemoryOnceStore, MemoryRateLimiter } from '../../bff/src/adapters/memory-limits.js';
import { MemoryEventStore } from '../../bff/src/adapters/memory-store.js';
import { describeEventStoreContract, describeOnceStoreContract, describeRateLimiterContract } from './store-contract.js';
import { describeUserDirectoryContract } from './user-directory-contract.js';

describeEventStoreContract('memory', async (retention) => {
  const store = new MemoryEventStore(retention);
  return { store, cleanup: () => store.close() };
});

describeRateLimiterContract('memory', async () => ({ limiter: new MemoryRateLimiter(), cleanup: async () => {} }));

describeOnceStoreContract('memory', async () => ({ onceStore: new MemoryOnceStore(), cleanup: async () => {} }));

describeOnceStoreContract('file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'parley-once-contract-'));
  const onceStore = await FileOnceStore.open(join(dir, 'spent'));
  const cleanup = async () => {
    await onceStore.close();
    await rm(dir, { recursive: true, force: true });
  };
  return { onceStore, cleanup };
});

describeUserDirectoryContract('memory', async (now) => ({ users: new MemoryUserDirectory(now), cleanup: async () => {} }));
