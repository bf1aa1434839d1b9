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

describeUserDirectoryContract('memory', async (now) => ({ users: new MemoryUserDirectory(now), cleanup: async () => {} }));
