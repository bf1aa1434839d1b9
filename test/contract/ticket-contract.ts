import { afterEach, describe, expect, it } from 'vitest';
import { TokenService } from '../../bff/src/lib/tokens.js';
import type { OnceStore } from '../../bff/src/ports/once-store.js';
import { until } from '../helpers/wait.js';
import type { MakeOnceStore } from './store-contract.js';
import { authCode as code } from '../helpers/auth-code.js';

/**
 * Runs the stream-ticket rules (docs/api.md "Event stream") against the `OnceStore` that keeps
 * tickets in one deployment (memory, `SPENT_TOKENS_FILE`, Redis): the rules live in `TokenService`,
 * but they hold only if every store answers `has`/`claim`/`mark` as they expect.
 */
export function describeTicketContract(name: string, makeOnceStore: MakeOnceStore): void {
  describe(`stream tickets over the OnceStore: ${name}`, () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
    });
    async function open(streamReconnectSec = 60): Promise<TokenService> {
      const { onceStore, cleanup } = await makeOnceStore();
      cleanups.push(cleanup);
      return tokensOver(onceStore, streamReconnectSec);
    }
    async function ticketFor(tokens: TokenService): Promise<string> {
      return tokens.ticket(await tokens.verifyAccess((await tokens.issue('conv-1', undefined)).token, undefined));
    }

    it('leaves a ticket that was checked but not spent (a connect refused with 429 or 503) for a retry', async () => {
      const tokens = await open();
      const ticket = await ticketFor(tokens);
      await tokens.checkTicket(ticket, undefined); // the stream refused before spending it
      await tokens.checkTicket(ticket, undefined);
      const { spend } = await tokens.checkTicket(ticket, undefined);
      await spend();
      expect(await code(tokens.checkTicket(ticket, undefined))).toBe('invalid_token');
    });

    it('lets only one of two connects that checked a ticket together spend it (a copy never opens a second stream)', async () => {
      const tokens = await open();
      const ticket = await ticketFor(tokens);
      const checked = await Promise.all([tokens.checkTicket(ticket, undefined), tokens.checkTicket(ticket, undefined)]);
      const codes = await Promise.all(checked.map(({ spend }) => code(spend())));
      expect(codes.sort()).toEqual(['invalid_token', undefined]);
    });

    it('refuses a spent ticket after its stream closed and the grace passed', async () => {
      const tokens = await open(0.2);
      const ticket = await ticketFor(tokens);
      const { claims, spend } = await tokens.checkTicket(ticket, undefined);
      await spend();
      await tokens.streamOpened(claims);
      await (await tokens.checkTicket(ticket, undefined, true)).spend(); // a reconnect with Last-Event-ID
      await tokens.streamClosed(claims);
      const closed = Date.now();
      // Checking does not spend: polled until the grace (0.2 s) is over.
      await until('the grace over', async () => (await code(tokens.checkTicket(ticket, undefined, true))) === 'invalid_token');
      expect(Date.now() - closed).toBeGreaterThanOrEqual(150);
      expect(await code(tokens.checkTicket(ticket, undefined))).toBe('invalid_token');
    });
  });
}

function tokensOver(onceStore: OnceStore, streamReconnectSec: number): TokenService {
  return new TokenService({ secret: 'contract-'.repeat(5), accessTtlSec: 900, refreshTtlSec: 3600, streamReconnectSec, onceStore });
}
