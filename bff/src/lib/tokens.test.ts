import { SignJWT, decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { MemoryOnceStore } from '../adapters/memory-limits.js';
import { TokenService } from './tokens.js';
import { authCode as code } from '../../../test/helpers/auth-code.js';

const SECRET = 'x'.repeat(40);
let clock = 1_763_800_000_000;
const now = () => clock;
const make = () => new TokenService({ secret: SECRET, accessTtlSec: 900, refreshTtlSec: 3600, onceStore: new MemoryOnceStore(now), now });

describe('TokenService', () => {
  it('issues an HS256 access token for the widget audience, bound to the origin', async () => {
    const tokens = make();
    const pair = await tokens.issue('1001', 'https://shop.example');
    const claims = decodeJwt(pair.token);
    expect(claims).toMatchObject({ sub: '1001', aud: 'parley-widget', iss: 'parley-bff', org: 'https://shop.example' });
    expect(claims.exp! - claims.iat!).toBe(900);
    expect(JSON.parse(Buffer.from(pair.token.split('.')[0]!, 'base64url').toString()).alg).toBe('HS256');
    expect(pair.expiresAt).toBe(new Date((Math.floor(clock / 1000) + 900) * 1000).toISOString());
    await expect(tokens.verifyAccess(pair.token, 'https://shop.example')).resolves.toMatchObject({ conversationId: '1001' });
    await expect(tokens.verifyAccess(pair.token, undefined)).resolves.toMatchObject({ conversationId: '1001' });
  });

  it('refuses the token from another origin', async () => {
    const tokens = make();
    const pair = await tokens.issue('1001', 'https://shop.example');
    expect(await code(tokens.verifyAccess(pair.token, 'https://evil.example'))).toBe('origin_not_allowed');
  });

  it('reports token_expired after exp, and invalid_token for tampering', async () => {
    const tokens = make();
    const pair = await tokens.issue('1001', undefined);
    const [h, p] = pair.token.split('.');
    expect(await code(tokens.verifyAccess(`${h}.${p}.AAAA`, undefined))).toBe('invalid_token');
    clock += 901_000;
    expect(await code(tokens.verifyAccess(pair.token, undefined))).toBe('token_expired');
  });

  it('does not accept refresh tokens as access tokens or the reverse', async () => {
    const tokens = make();
    const pair = await tokens.issue('1001', undefined);
    expect(await code(tokens.verifyAccess(pair.refreshToken, undefined))).toBe('invalid_token');
    expect(await code(tokens.refresh(pair.token, undefined))).toBe('invalid_token');
  });

  it('refuses other algorithms and other keys', async () => {
    const tokens = make();
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"1","aud":"parley-widget","iss":"parley-bff","exp":99999999999}').toString('base64url')}.`;
    expect(await code(tokens.verifyAccess(none, undefined))).toBe('invalid_token');
    const hs512 = await new SignJWT({}).setProtectedHeader({ alg: 'HS512' }).setSubject('1').setAudience('parley-widget').setIssuer('parley-bff').setExpirationTime('1h').sign(new TextEncoder().encode(SECRET));
    expect(await code(tokens.verifyAccess(hs512, undefined))).toBe('invalid_token');
    const otherKey = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('1').setAudience('parley-widget').setIssuer('parley-bff').setExpirationTime('1h').sign(new TextEncoder().encode('y'.repeat(40)));
    expect(await code(tokens.verifyAccess(otherKey, undefined))).toBe('invalid_token');
  });

  it('rotates refresh tokens: each works once, for the same conversation and origin', async () => {
    const tokens = make();
    const first = await tokens.issue('1001', 'https://shop.example');
    const second = await tokens.refresh(first.refreshToken, 'https://shop.example');
    expect(decodeJwt(second.token)).toMatchObject({ sub: '1001', org: 'https://shop.example' });
    expect(second.refreshToken).not.toBe(first.refreshToken);
    const third = await tokens.refresh(second.refreshToken, 'https://shop.example');
    await expect(tokens.refresh(third.refreshToken, 'https://shop.example')).resolves.toBeTruthy();
  });

  it('a reused refresh token revokes its chain: the pair issued for it, and every later one, stop working', async () => {
    const tokens = make();
    const first = await tokens.issue('1001', 'https://shop.example');
    const second = await tokens.refresh(first.refreshToken, 'https://shop.example'); // the thief
    const third = await tokens.refresh(second.refreshToken, 'https://shop.example');
    expect(await code(tokens.refresh(first.refreshToken, 'https://shop.example'))).toBe('refresh_token_reused'); // the owner
    expect(await code(tokens.refresh(third.refreshToken, 'https://shop.example'))).toBe('refresh_token_reused');
    const other = await tokens.issue('1002', 'https://shop.example'); // other conversations are untouched
    await expect(tokens.refresh(other.refreshToken, 'https://shop.example')).resolves.toBeTruthy();
  });

  it('refuses a refresh from another origin without spending it', async () => {
    const tokens = make();
    const pair = await tokens.issue('1001', 'https://shop.example');
    expect(await code(tokens.refresh(pair.refreshToken, 'https://evil.example'))).toBe('origin_not_allowed');
    await expect(tokens.refresh(pair.refreshToken, 'https://shop.example')).resolves.toBeTruthy();
  });

  it('carries the signed-in user in access tokens, and a refresh keeps the binding', async () => {
    const tokens = make();
    const first = await tokens.issue('1001', undefined, { id: 'user-7', name: 'Ada' });
    await expect(tokens.verifyAccess(first.token, undefined)).resolves.toMatchObject({ conversationId: '1001', user: { id: 'user-7', name: 'Ada' } });
    const second = await tokens.refresh(first.refreshToken, undefined);
    await expect(tokens.verifyAccess(second.token, undefined)).resolves.toMatchObject({ conversationId: '1001', user: { id: 'user-7', name: 'Ada' } });
    const anonymous = await tokens.issue('1002', undefined);
    expect((await tokens.verifyAccess(anonymous.token, undefined)).user).toBeUndefined();
    expect((await tokens.verifyAccess((await tokens.refresh(anonymous.refreshToken, undefined)).token, undefined)).user).toBeUndefined();
  });

  describe('stream tickets', () => {
    it('stand for the access token once, within 30 s, from its origin only', async () => {
      const tokens = make();
      const pair = await tokens.issue('1001', 'https://shop.example', { id: 'u1', name: 'Ada' });
      const claims = await tokens.verifyAccess(pair.token, 'https://shop.example');
      const ticket = await tokens.ticket(claims);
      expect(decodeJwt(ticket)).toMatchObject({ aud: 'parley-stream-ticket', sub: '1001' });
      expect(await code(tokens.redeemTicket(ticket, 'https://evil.example'))).toBe('origin_not_allowed');
      // The stream keeps the access token's own expiry, not the ticket's 30 s.
      await expect(tokens.redeemTicket(ticket, 'https://shop.example')).resolves.toEqual({ ...claims, ticketId: decodeJwt(ticket).jti });
      expect(await code(tokens.redeemTicket(ticket, 'https://shop.example'))).toBe('invalid_token');

      const late = await tokens.ticket(claims);
      clock += 31_000;
      expect(await code(tokens.redeemTicket(late, 'https://shop.example'))).toBe('invalid_token');
    });

    it('reopen their stream on a reconnect with Last-Event-ID while it is open and for a while after it closed, never past the token', async () => {
      const tokens = new TokenService({ secret: SECRET, accessTtlSec: 900, refreshTtlSec: 3600, streamReconnectSec: 60, onceStore: new MemoryOnceStore(now), now });
      const claims = await tokens.verifyAccess((await tokens.issue('1001', undefined)).token, undefined);
      const ticket = await tokens.ticket(claims);
      const session = await tokens.redeemTicket(ticket, undefined);
      // Used, and its stream not open: a reconnect is refused, as is a second first connect.
      expect(await code(tokens.redeemTicket(ticket, undefined, true))).toBe('invalid_token');
      await tokens.streamOpened(session);
      expect(await code(tokens.redeemTicket(ticket, undefined, false))).toBe('invalid_token'); // no Last-Event-ID
      expect(await code(tokens.redeemTicket(ticket, undefined, true))).toBeUndefined();
      clock += 5 * 60_000; // long past the 30 s of a first connect, the stream still open
      expect(await code(tokens.redeemTicket(ticket, undefined, true))).toBeUndefined();
      await tokens.streamClosed(session);
      clock += 59_000;
      expect(await code(tokens.redeemTicket(ticket, undefined, true))).toBeUndefined();
      clock += 2_000;
      expect(await code(tokens.redeemTicket(ticket, undefined, true))).toBe('invalid_token');

      // Open until the access token's expiry, and not a second past it.
      const other = await tokens.ticket(claims);
      await tokens.streamOpened(await tokens.redeemTicket(other, undefined));
      clock = claims.expiresAt + 1_000;
      expect(await code(tokens.redeemTicket(other, undefined, true))).toBe('token_expired');
    });

    it('are neither access nor refresh tokens, and those are not tickets', async () => {
      const tokens = make();
      const pair = await tokens.issue('1001', undefined);
      const ticket = await tokens.ticket(await tokens.verifyAccess(pair.token, undefined));
      expect(await code(tokens.verifyAccess(ticket, undefined))).toBe('invalid_token');
      expect(await code(tokens.refresh(ticket, undefined))).toBe('invalid_token');
      expect(await code(tokens.redeemTicket(pair.token, undefined))).toBe('invalid_token');
      expect(await code(tokens.redeemTicket(pair.refreshToken, undefined))).toBe('invalid_token');
    });
  });
});

describe('revoking a chain', () => {
  /** A once-store that counts the commands it is sent (each is one Redis command in the Redis adapter). */
  function countingStore() {
    const inner = new MemoryOnceStore(now);
    const store = {
      commands: 0,
      claim: (key: string, ttlMs: number) => (store.commands++, inner.claim(key, ttlMs)),
      has: (key: string) => (store.commands++, inner.has(key)),
      mark: (key: string, ttlMs: number) => (store.commands++, inner.mark(key, ttlMs)),
    };
    return store;
  }

  it('costs a bounded number of store commands, whatever the chain’s length', async () => {
    for (const length of [1, 50, 1_000]) {
      const store = countingStore();
      const tokens = new TokenService({ secret: SECRET, accessTtlSec: 900, refreshTtlSec: 3600, onceStore: store, now });
      const first = await tokens.issue('1001', undefined);
      let live = first;
      for (let i = 0; i < length; i++) live = await tokens.refresh(live.refreshToken, undefined);
      store.commands = 0;
      expect(await code(tokens.refresh(first.refreshToken, undefined))).toBe('refresh_token_reused');
      expect(store.commands, `chain of ${length}`).toBeLessThanOrEqual(20);
      // Every token of the chain is dead: the live refresh token and the live access token alike.
      expect(await code(tokens.refresh(live.refreshToken, undefined))).toBe('refresh_token_reused');
      expect(await code(tokens.verifyAccess(live.token, undefined))).toBe('invalid_token');
    }
  });

  it('revoke() ends the chain of an access token and leaves other chains alone', async () => {
    const tokens = make();
    const mine = await tokens.issue('1001', undefined);
    const other = await tokens.issue('1001', undefined);
    const claims = await tokens.verifyAccess(mine.token, undefined);
    const ticket = await tokens.ticket(claims);
    await tokens.revoke(claims);
    expect(await code(tokens.verifyAccess(mine.token, undefined))).toBe('invalid_token');
    expect(await code(tokens.redeemTicket(ticket, undefined))).toBe('invalid_token');
    expect(await code(tokens.refresh(mine.refreshToken, undefined))).toBe('refresh_token_reused');
    expect(await code(tokens.verifyAccess(other.token, undefined))).toBeUndefined();
    expect(await code(tokens.refresh(other.refreshToken, undefined))).toBeUndefined();
  });
});
