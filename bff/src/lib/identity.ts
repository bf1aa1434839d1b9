import { createSecretKey, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { AuthError, UpstreamError } from '../errors.js';
import type { VariableValue } from '../ports/upstream.js';
import { isRecord } from '../../../shared/records.js';
import { checkVariables } from './variables.js';

/** The audience every identity token must name, so a token minted for another service is refused. */
export const IDENTITY_AUDIENCE = 'parley-identity';
/** The longest lifetime (`exp - iat`) an identity token may have. */
export const MAX_IDENTITY_LIFETIME_SEC = 24 * 3600;
const ASYMMETRIC = ['RS256', 'ES256', 'EdDSA'];
// Clocks of the host site's backend and of the BFF may differ a little.
const CLOCK_TOLERANCE_SEC = 30;
const MAX_TOKEN_LENGTH = 8192;
/** The key set is fetched at most this often, failed fetches included (docs/api.md "Signed-in users"). */
export const JWKS_MIN_INTERVAL_MS = 3_000;
/** How long fetched keys serve before they are fetched again. */
const JWKS_MAX_AGE_MS = 10 * 60_000;

type RemoteKeySet = ReturnType<typeof createRemoteJWKSet>;
// Printable: no control, format or unassigned characters, not only spaces.
const PRINTABLE = /^(?!\s*$)[^\p{C}]+$/u;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** A signed-in user, as vouched for by the host site's backend (docs/api.md "Signed-in users"). */
export interface VerifiedIdentity {
  userId: string;
  name?: string;
  email?: string;
  variables: Record<string, VariableValue>;
}

export interface IdentityVerifierOptions {
  /** HS256 key shared with the host site's backend. */
  secret?: string;
  /** Public keys of the host site's backend (RS256, ES256, EdDSA). A URL, or a key set (tests). */
  jwks?: string | JWTVerifyGetKey;
  issuer?: string;
  /** `USER_VARIABLES`: the only variable names an identity token may carry. */
  userVariables: readonly string[];
  now?: () => number;
}

/** Verifies identity tokens; every bad token becomes `401 invalid_identity`. */
export class IdentityVerifier {
  private readonly secret?: KeyObject;
  private readonly jwks?: JWTVerifyGetKey;
  private readonly remote?: RemoteKeySet;
  private jwksFailedAt = -Infinity;
  private readonly algorithms: string[];
  private readonly now: () => number;

  constructor(private readonly options: IdentityVerifierOptions) {
    if (options.secret) this.secret = createSecretKey(Buffer.from(options.secret, 'utf8'));
    // jose caches the key set and fetches it again when a token names a key it has not seen, at most
    // once per cooldown after a successful fetch (so a newly published key works within seconds).
    // Failed fetches have no cooldown in jose: `key` adds one.
    if (typeof options.jwks === 'string') {
      this.remote = createRemoteJWKSet(new URL(options.jwks), { cooldownDuration: JWKS_MIN_INTERVAL_MS, cacheMaxAge: JWKS_MAX_AGE_MS });
    }
    this.jwks = this.remote ?? (typeof options.jwks === 'string' ? undefined : options.jwks);
    this.algorithms = [...(this.secret ? ['HS256'] : []), ...(this.jwks ? ASYMMETRIC : [])];
    this.now = options.now ?? Date.now;
  }

  /** Verifies `token` and returns the user; throws `AuthError('invalid_identity')`, or `upstream_unavailable` when the key set cannot be fetched. */
  async verify(token: unknown): Promise<VerifiedIdentity> {
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw invalid('Identity token must be a JWT string');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, (header, jws) => this.key(header.alg, header, jws), {
        algorithms: this.algorithms,
        audience: IDENTITY_AUDIENCE,
        ...(this.options.issuer ? { issuer: this.options.issuer } : {}),
        requiredClaims: ['sub', 'exp', 'iat'],
        clockTolerance: CLOCK_TOLERANCE_SEC,
        currentDate: new Date(this.now()),
      }));
    } catch (cause) {
      if (cause instanceof KeysUnavailable) throw new UpstreamError('upstream_unavailable', 'Identity keys cannot be fetched right now', { cause: cause.cause });
      if (cause instanceof joseErrors.JWTExpired) throw invalid('Identity token expired', cause);
      throw invalid('Identity token is not valid', cause);
    }
    return this.claims(payload);
  }

  private async key(alg: string | undefined, header: Parameters<JWTVerifyGetKey>[0], jws: Parameters<JWTVerifyGetKey>[1]) {
    if (alg === 'HS256' && this.secret) return this.secret;
    if (!this.jwks) throw invalid(`Identity tokens signed with ${alg} are not accepted`);
    const failedRecently = Date.now() - this.jwksFailedAt < JWKS_MIN_INTERVAL_MS;
    try {
      if (this.remote && failedRecently) return await this.cachedKey(this.remote, header, jws);
      return await this.jwks(header, jws);
    } catch (cause) {
      if (cause instanceof KeysUnavailable) throw cause;
      // An unknown or ambiguous key is the token's fault; a key set that cannot be fetched is not.
      if (cause instanceof joseErrors.JWKSNoMatchingKey || cause instanceof joseErrors.JWKSMultipleMatchingKeys) throw cause;
      this.jwksFailedAt = Date.now();
      throw new KeysUnavailable(cause);
    }
  }

  /** Soon after a failed fetch: the keys fetched before (even past their age), never the network. */
  private async cachedKey(remote: RemoteKeySet, header: Parameters<JWTVerifyGetKey>[0], jws: Parameters<JWTVerifyGetKey>[1]) {
    const cached = remote.jwks();
    if (!cached) throw new KeysUnavailable(new Error('the key set could not be fetched a moment ago'));
    try {
      return await createLocalJWKSet(cached)(header, jws);
    } catch (cause) {
      // A key we do not have may be one published since: not the token's fault while we cannot look.
      if (cause instanceof joseErrors.JWKSNoMatchingKey) throw new KeysUnavailable(cause);
      throw cause;
    }
  }

  private claims(payload: JWTPayload): VerifiedIdentity {
    const { sub, exp, iat } = payload as { sub: unknown; exp: number; iat: number };
    // jose checks that `sub` is present, not that it is a string: a number or an array must not become a user id.
    if (typeof sub !== 'string' || [...sub].length > 128 || !PRINTABLE.test(sub)) throw invalid('Identity token "sub" must be 1 to 128 printable characters');
    if (exp - iat > MAX_IDENTITY_LIFETIME_SEC) throw invalid('Identity token lives longer than 24 hours');
    if (iat * 1000 > this.now() + CLOCK_TOLERANCE_SEC * 1000) throw invalid('Identity token was issued in the future');
    const identity: VerifiedIdentity = { userId: sub, variables: {} };
    if (payload.name !== undefined) {
      if (typeof payload.name !== 'string' || payload.name.length > 100 || !PRINTABLE.test(payload.name)) throw invalid('Identity token "name" must be up to 100 printable characters');
      identity.name = payload.name;
    }
    if (payload.email !== undefined) {
      if (typeof payload.email !== 'string' || payload.email.length > 254 || !EMAIL.test(payload.email)) throw invalid('Identity token "email" must be an email address');
      identity.email = payload.email;
    }
    if (payload.variables !== undefined) {
      if (!isRecord(payload.variables)) throw invalid('Identity token "variables" must be an object');
      const checked = checkVariables(payload.variables, this.options.userVariables);
      if ('problem' in checked) {
        const { kind, name } = checked.problem;
        throw invalid(kind === 'not_allowed' ? `Identity token variable "${name}" is not in USER_VARIABLES` : `Identity token variable "${name}" has a value of the wrong kind`);
      }
      identity.variables = checked.variables;
    }
    return identity;
  }
}

/** The key set could not be fetched (network, timeout, malformed set): not the token's fault. */
class KeysUnavailable extends Error {
  constructor(cause: unknown) {
    super('identity keys unavailable', { cause });
  }
}

function invalid(message: string, cause?: unknown): AuthError {
  return new AuthError('invalid_identity', message, { cause });
}
