import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileOnceStore } from '../../bff/src/adapters/file-once-store.js';
import { MemoryUserDirectory } from '../../bff/src/adapters/memory-users.js';
import { MemoryOnceStore, MemoryRateLimiter, MemoryStartRecords } from '../../bff/src/adapters/memory-limits.js';
import { MemoryEventStore } from '../../bff/src/adapters/memory-store.js';
import { MemoryEmailLedger } from '../../bff/src/adapters/memory-email-ledger.js';
import { describeEmailLedgerContract } from './email-ledger-contract.js';
import { describeEventStoreContract, describeOnceStoreContract, describeRateLimiterContract, type MakeOnceStore } from './store-contract.js';
import { describeStartRecordsContract } from './start-contract.js';
import { describeTicketContract } from './ticket-contract.js';
import { describeUserDirectoryContract } from './user-directory-contract.js';

describeEventStoreContract('memory', async (retention) => {
  const store = new MemoryEventStore(retention);
  return { store, cleanup: () => store.close() };
});

describeRateLimiterContract('memory', async () => ({ limiter: new MemoryRateLimiter(), cleanup: async () => {} }));

const memoryOnceStore: MakeOnceStore = async () => ({ onceStore: new MemoryOnceStore(), cleanup: async () => {} });
describeOnceStoreContract('memory', memoryOnceStore);
describeTicketContract('memory', memoryOnceStore);

const fileOnceStore: MakeOnceStore = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'parley-once-contract-'));
  const onceStore = await FileOnceStore.open(join(dir, 'spent'));
  const cleanup = async () => {
    await onceStore.close();
    await rm(dir, { recursive: true, force: true });
  };
  return { onceStore, cleanup };
};
describeOnceStoreContract('file', fileOnceStore);
describeTicketContract('file', fileOnceStore);

describeUserDirectoryContract('memory', async (now) => ({ users: new MemoryUserDirectory(now), cleanup: async () => {} }));

describeStartRecordsContract('memory', async () => ({ starts: new MemoryStartRecords(), cleanup: async () => {} }));

describeEmailLedgerContract('memory', async () => {
  const ledger = new MemoryEmailLedger();
  return { ledgers: [ledger, ledger], cleanup: async () => {} };
});
