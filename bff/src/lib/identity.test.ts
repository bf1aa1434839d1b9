import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, createLocalJWKSet, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../errors.js';
import { IdentityVerifier, JWKS_MIN_INTERVAL_MS } from './identity.js';
import { until } from '../../../test/helpers/wait.js';

const SECRET = 'identity-secret-0123456789-0123456789';
const NOW = 1_763_800_000_000;
const nowSec = Math.floor(NOW / 1000);
const now = () => NOW;

function mint(claims: Record<string, unknown> = {}, options: { secret?: string; iat?: number; exp?: number; aud?: string; iss?: string; sub?: string } = {}) {
  const jwt = new SignJWT({ name: 'Ada Lovelace', ...claims })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(options.sub ?? 'user-1')
    .setAudience(options.aud ?? 'parley-identity')
    .setIssuedAt(options.iat ?? nowSec - 10)
    .setExpirationTime(options.exp ?? nowSec + 600);
  if (options.iss) jwt.setIssuer(options.iss);
  return jwt.sign(new TextEncoder().encode(options.secret ?? SECRET));
}

/** A signed token whose `sub` is any JSON value (SignJWT's setSubject takes strings only). */
function mintSub(sub: unknown) {
  return new SignJWT({ sub, aud: 'parley-identity', iat: nowSec - 10, exp: nowSec + 600 } as Record<string, unknown>)
    .setProtectedHeader({ alg: 'HS256' })
    .sign(new TextEncoder().encode(SECRET));
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'accepted';
  } catch (err) {
    return err instanceof AppError ? err.code : `unexpected: ${String(err)}`;
  }
}

describe('IdentityVerifier (HS256)', () => {
  const verifier = new IdentityVerifier({ secret: SECRET, userVariables: ['plan', 'vip'], now });

  it('returns the user id, name, email and allowed variables', async () => {
    const token = await mint({ email: 'ada@example.com', variables: { plan: 'pro', vip: true } });
    await expect(verifier.verify(token)).resolves.toEqual({ userId: 'user-1', name: 'Ada Lovelace', email: 'ada@example.com', variables: { plan: 'pro', vip: true } });
  });

  it.each([
    ['forged (another key)', () => mint({}, { secret: 'another-secret-0123456789-0123456789' })],
    ['expired', () => mint({}, { iat: nowSec - 3600, exp: nowSec - 60 })],
    ['alg none', async () => new UnsecuredJWT({ sub: 'user-1', aud: 'parley-identity', iat: nowSec, exp: nowSec + 60 }).encode()],
    ['for another audience', () => mint({}, { aud: 'parley-widget' })],
    ['living longer than 24 h', () => mint({}, { iat: nowSec - 10, exp: nowSec - 10 + 24 * 3600 + 1 })],
    ['issued in the future', () => mint({}, { iat: nowSec + 3600, exp: nowSec + 7200 })],
    ['with a sub of 129 characters', () => mint({}, { sub: 'u'.repeat(129) })],
    ['with a control character in sub', () => mint({}, { sub: 'user\u0000one' })],
    ['with an empty sub', () => mint({}, { sub: '' })],
    ['with a variable outside USER_VARIABLES', () => mint({ variables: { role: 'admin' } })],
    ['with a variable of the wrong kind', () => mint({ variables: { plan: { nested: true } } })],
    ['with a name that is not a string', () => mint({ name: 42 })],
    ['with a malformed email', () => mint({ email: 'not an email' })],
    ['that is not a JWT', async () => 'not.a.jwt'],
    ['with a number as sub', () => mintSub(42)],
    ['with an array as sub', () => mintSub(['user-1', 'user-2'])],
    ['with an object as sub', () => mintSub({ id: 'user-1' })],
  ])('refuses a token %s with invalid_identity', async (_label, make) => {
    expect(await failure(verifier.verify(await make()))).toBe('invalid_identity');
  });

  it('refuses a token without iat', async () => {
    const token = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('u').setAudience('parley-identity').setExpirationTime(nowSec + 60).sign(new TextEncoder().encode(SECRET));
    expect(await failure(verifier.verify(token))).toBe('invalid_identity');
  });

  it('checks iss when an issuer is configured', async () => {
    const strict = new IdentityVerifier({ secret: SECRET, issuer: 'https://shop.example', userVariables: [], now });
    expect(await failure(strict.verify(await mint({}, { iss: 'https://shop.example' })))).toBe('accepted');
    expect(await failure(strict.verify(await mint({}, { iss: 'https://evil.example' })))).toBe('invalid_identity');
    expect(await failure(strict.verify(await mint()))).toBe('invalid_identity');
  });
});

describe('IdentityVerifier (JWKS)', () => {
  const keys: Record<string, { privateKey: CryptoKey; jwk: JWK }> = {};
  let server: ReturnType<typeof createServer>;
  let jwksUrl = '';

  beforeAll(async () => {
    for (const [alg, kid] of [['RS256', 'rsa'], ['ES256', 'ec'], ['EdDSA', 'ed']] as const) {
      const pair = await generateKeyPair(alg, { extractable: true });
      keys[alg] = { privateKey: pair.privateKey, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg } };
    }
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: Object.values(keys).map((k) => k.jwk) }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const signWith = (alg: string) =>
    new SignJWT({ name: 'Grace' }).setProtectedHeader({ alg, kid: keys[alg]!.jwk.kid }).setSubject('user-2').setAudience('parley-identity').setIssuedAt(nowSec).setExpirationTime(nowSec + 600).sign(keys[alg]!.privateKey);

  it.each(['RS256', 'ES256', 'EdDSA'])('accepts %s tokens signed by a key from IDENTITY_JWKS_URL', async (alg) => {
    const verifier = new IdentityVerifier({ jwks: jwksUrl, userVariables: [], now });
    await expect(verifier.verify(await signWith(alg))).resolves.toMatchObject({ userId: 'user-2', name: 'Grace' });
  });

  it('refuses HS256 tokens when only a key set is configured, and tokens of unknown keys', async () => {
    const verifier = new IdentityVerifier({ jwks: createLocalJWKSet({ keys: [keys.ES256!.jwk] }), userVariables: [], now });
    expect(await failure(verifier.verify(await mint()))).toBe('invalid_identity');
    expect(await failure(verifier.verify(await signWith('RS256')))).toBe('invalid_identity');
    expect(await failure(verifier.verify(await signWith('ES256')))).toBe('accepted');
  });

  it('answers upstream_unavailable, not invalid_identity, when the key set cannot be fetched', async () => {
    const verifier = new IdentityVerifier({ jwks: 'http://127.0.0.1:9/jwks.json', userVariables: [], now });
    expect(await failure(verifier.verify(await signWith('ES256')))).toBe('upstream_unavailable');
  });

  it('fetches the key set at most once per interval while it fails, and keeps using the keys it has', async () => {
    let requests = 0;
    let failing = false;
    const flaky = createServer((_req, res) => {
      requests++;
      if (failing) return void res.writeHead(500).end();
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [keys.ES256!.jwk] }));
    });
    await new Promise<void>((resolve) => flaky.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}/jwks.json`;
    try {
      const verifier = new IdentityVerifier({ jwks: url, userVariables: [], now });
      expect(await failure(verifier.verify(await signWith('ES256')))).toBe('accepted');
      expect(requests).toBe(1);
      failing = true;
      // Time is the subject: the key set's fetches are spaced by a cooldown on the clock jose reads
      // (Date.now), moved past it here rather than waited for.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + JWKS_MIN_INTERVAL_MS + 100 });
      const unknownKid = await signWith('RS256'); // names a key the set does not have: each would refetch
      const outcomes = [];
      for (let i = 0; i < 20; i++) outcomes.push(await failure(verifier.verify(unknownKid)));
      expect(outcomes.every((o) => o === 'upstream_unavailable')).toBe(true);
      expect(requests).toBe(2); // one failed fetch, then the cooldown
      // A token of a key it already has still works while the key set cannot be fetched.
      expect(await failure(verifier.verify(await signWith('ES256')))).toBe('accepted');
      expect(requests).toBe(2);
    } finally {
      vi.useRealTimers();
      await new Promise<void>((resolve) => flaky.close(() => resolve()));
    }
  }, 15_000);

  it('accepts a newly published key within seconds', async () => {
    const published = [keys.ES256!.jwk];
    const rotating = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((resolve) => rotating.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(rotating.address() as AddressInfo).port}/jwks.json`;
    try {
      const verifier = new IdentityVerifier({ jwks: url, userVariables: [], now });
      expect(await failure(verifier.verify(await signWith('ES256')))).toBe('accepted');
      published.push(keys.EdDSA!.jwk);
      const started = Date.now();
      await until('the new key accepted', async () => (await failure(verifier.verify(await signWith('EdDSA')))) === 'accepted', 10_000);
      expect(Date.now() - started).toBeLessThan(JWKS_MIN_INTERVAL_MS + 1_500);
    } finally {
      await new Promise<void>((resolve) => rotating.close(() => resolve()));
    }
  }, 15_000);
});
