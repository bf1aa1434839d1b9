import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, decodeJwt, jwtVerify, errors as joseErrors } from 'jose';
import { AuthError } from '../errors.js';
import type { OnceStore } from '../ports/once-store.js';

const ISSUER = 'parley-bff';
const ACCESS_AUDIENCE = 'parley-widget';
// A different audience keeps refresh tokens from working as access tokens and the reverse.
const REFRESH_AUDIENCE = 'parley-refresh';
// Stream tickets (docs/api.md "Event stream"): an access token's claims for one stream open.
const TICKET_AUDIENCE = 'parley-stream-ticket';
const TICKET_TTL_SEC = 30;
// User tokens (docs/api.md "Signed-in users"): a signed-in user with no open conversation lists and
// reads their own conversations; no conversation route accepts this audience.
const USER_AUDIENCE = 'parley-user';

/** A signed-in user as tokens carry it (docs/api.md "Signed-in users"): the verified id and display name. */
export interface TokenUser {
  id: string;
  name?: string;
  /** The identity token carried an email: the site knows the address, so nobody asks for one (POST /api/contact refuses). */
  emailKnown?: true;
}

/**
 * What an access token proves: the conversation, the embedding origin when the request that
 * minted it had one, and the signed-in user the conversation belongs to, if any.
 */
export interface SessionClaims {
  conversationId: string;
  origin?: string;
  user?: TokenUser;
  expiresAt: number;
  /** The token chain this access token belongs to: every pair refreshed from one issue shares it. */
  chainId?: string;
  /** Set when a stream ticket opened this stream: its id, for reconnects with the same ticket. */
  ticketId?: string;
}

export interface TokenPair {
  token: string;
  refreshToken: string;
  /** Access-token expiry, ISO 8601. */
  expiresAt: string;
}

export interface TokenServiceOptions {
  secret: string;
  accessTtlSec: number;
  refreshTtlSec: number;
  /** STREAM_RECONNECT_SEC: how long after its stream closed a ticket may reopen it (with Last-Event-ID). Default 60. */
  streamReconnectSec?: number;
  onceStore: OnceStore;
  now?: () => number;
}

/** Mints and verifies the widget's session JWTs (HS256 pinned) and rotates single-use refresh tokens. */
export class TokenService {
  private readonly key: KeyObject;
  private readonly now: () => number;

  constructor(private readonly options: TokenServiceOptions) {
    this.key = createSecretKey(Buffer.from(options.secret, 'utf8'));
    this.now = options.now ?? Date.now;
  }

  /**
   * A fresh access + refresh pair for a conversation, bound to the signed-in user when there is one,
   * in a new chain or in `chainId` (a repeated start: revoking the chain ends both pairs).
   */
  async issue(conversationId: string, origin: string | undefined, user?: TokenUser, chainId: string = randomUUID()): Promise<TokenPair> {
    return this.issueInChain(conversationId, origin, user, chainId, randomUUID());
  }

  /** Whether the chain `chainId` was revoked (`revoke`): none of its tokens works. */
  async chainEnded(chainId: string): Promise<boolean> {
    return this.options.onceStore.has(`chain:${chainId}`);
  }

  private async issueInChain(conversationId: string, origin: string | undefined, user: TokenUser | undefined, chainId: string, refreshId: string): Promise<TokenPair> {
    const nowSec = Math.floor(this.now() / 1000);
    const exp = nowSec + this.options.accessTtlSec;
    const extra: Record<string, string | number> = { cid: chainId };
    if (origin) extra.org = origin;
    Object.assign(extra, userClaims(user));
    const token = await new SignJWT(extra)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(conversationId)
      .setAudience(ACCESS_AUDIENCE)
      .setIssuer(ISSUER)
      .setIssuedAt(nowSec)
      .setExpirationTime(exp)
      .sign(this.key);
    const refreshToken = await new SignJWT(extra)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(conversationId)
      .setAudience(REFRESH_AUDIENCE)
      .setIssuer(ISSUER)
      .setJti(refreshId)
      .setIssuedAt(nowSec)
      .setExpirationTime(nowSec + this.options.refreshTtlSec)
      .sign(this.key);
    return { token, refreshToken, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /**
   * A user token: proves a signed-in user who has no open conversation, for the routes of their own
   * conversations only. No refresh token: the widget asks again with its identity token.
   */
  async issueUser(user: TokenUser, origin: string | undefined): Promise<{ token: string; expiresAt: string }> {
    const nowSec = Math.floor(this.now() / 1000);
    const exp = nowSec + this.options.accessTtlSec;
    const extra: Record<string, string | number> = userDetails(user);
    if (origin) extra.org = origin;
    const token = await new SignJWT(extra)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.id)
      .setAudience(USER_AUDIENCE)
      .setIssuer(ISSUER)
      .setIssuedAt(nowSec)
      .setExpirationTime(exp)
      .sign(this.key);
    return { token, expiresAt: new Date(exp * 1000).toISOString() };
  }

  /**
   * Verifies a token that may prove a user without a conversation: a user token gives the user alone,
   * an access token its claims (and the user of its conversation, if any).
   */
  async verifyAccessOrUser(token: string, requestOrigin: string | undefined): Promise<{ session?: SessionClaims; user?: TokenUser }> {
    let audience: unknown;
    try {
      audience = decodeJwt(token).aud;
    } catch {
      // Not even a JWT: verifyAccess says so in its words.
    }
    if (audience !== USER_AUDIENCE) {
      const session = await this.verifyAccess(token, requestOrigin);
      return { session, user: session.user };
    }
    const payload = await this.verify(token, USER_AUDIENCE);
    checkOrigin(typeof payload.org === 'string' ? payload.org : undefined, requestOrigin);
    return { user: userOf(payload, payload.sub) };
  }

  /** Verifies an access token and its origin binding; throws `AuthError`/`ForbiddenError`-coded errors. */
  async verifyAccess(token: string, requestOrigin: string | undefined): Promise<SessionClaims> {
    const payload = await this.verify(token, ACCESS_AUDIENCE);
    const origin = typeof payload.org === 'string' ? payload.org : undefined;
    checkOrigin(origin, requestOrigin);
    await this.checkChain(payload.cid);
    const user = userOf(payload);
    return { conversationId: payload.sub, origin, ...(user ? { user } : {}), expiresAt: payload.exp * 1000, ...chainOf(payload) };
  }

  /**
   * Ends the chain of `claims` at once: none of its access tokens, refresh tokens or stream tickets
   * works again, whatever its length (one store write; each use checks one key). Used when a reused
   * refresh token shows a thief, and on sign-in, so that tokens copied before it cannot follow the
   * visitor into the account.
   */
  async revoke(claims: SessionClaims): Promise<void> {
    if (claims.chainId) await this.options.onceStore.claim(`chain:${claims.chainId}`, this.options.refreshTtlSec * 1000);
  }

  private async checkChain(chainId: unknown): Promise<void> {
    if (typeof chainId === 'string' && (await this.options.onceStore.has(`chain:${chainId}`))) {
      throw new AuthError('invalid_token', 'This session was ended; start a new one');
    }
  }

  /**
   * A stream ticket: what `claims` allow, for `GET /api/events?ticket=`. A first connect must come
   * within 30 s; then the same ticket reopens that stream when a reconnect carries `Last-Event-ID`
   * (what a standard `EventSource` does after a drop), while the stream is open or for
   * `streamReconnectSec` after it closed, and never past the access token's expiry. It may sit in a
   * URL because it only reads, for one conversation and origin, and soon stops working.
   */
  async ticket(claims: SessionClaims): Promise<string> {
    const nowSec = Math.floor(this.now() / 1000);
    const tokenExp = Math.floor(claims.expiresAt / 1000);
    const extra: Record<string, string | number> = { sxp: tokenExp, fxp: nowSec + TICKET_TTL_SEC };
    if (claims.origin) extra.org = claims.origin;
    Object.assign(extra, userClaims(claims.user));
    if (claims.chainId) extra.cid = claims.chainId;
    return new SignJWT(extra)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.conversationId)
      .setAudience(TICKET_AUDIENCE)
      .setIssuer(ISSUER)
      .setIssuedAt(nowSec)
      .setExpirationTime(Math.max(nowSec + 1, tokenExp))
      .setJti(randomUUID())
      .sign(this.key);
  }

  /**
   * Redeems a stream ticket and returns the claims of the access token it was made from. The first
   * use spends it; a later one is a reconnect, allowed only with `reconnecting` (a `Last-Event-ID`)
   * while `streamOpened`/`streamClosed` keep it live.
   */
  async redeemTicket(ticket: string, requestOrigin: string | undefined, reconnecting = false): Promise<SessionClaims> {
    const checked = await this.checkTicket(ticket, requestOrigin, reconnecting);
    await checked.spend();
    return checked.claims;
  }

  /**
   * `redeemTicket` in two steps: the checks (signature, origin, chain, not spent or live for a
   * reconnect) now, the spending by `spend`, which the stream calls once its own checks (rate,
   * caps) passed, so a refusal there leaves the ticket for a retry. `spend` throws `invalid_token`
   * when another connect spent the ticket in between.
   */
  async checkTicket(ticket: string, requestOrigin: string | undefined, reconnecting = false): Promise<{ claims: SessionClaims; spend: () => Promise<void> }> {
    const payload = await this.verify(ticket, TICKET_AUDIENCE);
    const origin = typeof payload.org === 'string' ? payload.org : undefined;
    checkOrigin(origin, requestOrigin);
    if (typeof payload.jti !== 'string' || typeof payload.sxp !== 'number') throw new AuthError('invalid_token', 'Stream ticket is incomplete');
    await this.checkChain(payload.cid);
    const { jti } = payload;
    const ttlMs = Math.max(1000, payload.sxp * 1000 - this.now());
    const firstUse = typeof payload.fxp === 'number' && payload.fxp * 1000 > this.now();
    const spent = () => new AuthError('invalid_token', 'This stream ticket was already used or has expired; ask for a new one');
    const live = async () => reconnecting && (await this.options.onceStore.has(`ticket-live:${jti}`));
    let spend = async () => {};
    if (firstUse && !(await this.options.onceStore.has(`ticket:${jti}`))) {
      spend = async () => {
        if (!(await this.options.onceStore.claim(`ticket:${jti}`, ttlMs)) && !(await live())) throw spent();
      };
    } else if (!(await live())) {
      throw spent();
    }
    const user = userOf(payload);
    const claims: SessionClaims = { conversationId: payload.sub, origin, ...(user ? { user } : {}), expiresAt: payload.sxp * 1000, ...chainOf(payload), ticketId: jti };
    return { claims, spend };
  }

  /** The ticket's stream is open: it may reconnect until the access token expires (or `streamClosed` says otherwise). */
  async streamOpened(claims: SessionClaims): Promise<void> {
    if (claims.ticketId) await this.options.onceStore.mark(`ticket-live:${claims.ticketId}`, Math.max(1000, claims.expiresAt - this.now()));
  }

  /** The ticket's stream closed: it may reconnect for `streamReconnectSec` more, not past the token's expiry. */
  async streamClosed(claims: SessionClaims): Promise<void> {
    if (!claims.ticketId) return;
    const ttl = Math.min((this.options.streamReconnectSec ?? 60) * 1000, claims.expiresAt - this.now());
    await this.options.onceStore.mark(`ticket-live:${claims.ticketId}`, Math.max(1, ttl));
  }

  /** Spends a refresh token (once) and returns a new pair for the same conversation and origin. */
  async refresh(refreshToken: string, requestOrigin: string | undefined): Promise<TokenPair> {
    const payload = await this.verify(refreshToken, REFRESH_AUDIENCE);
    const origin = typeof payload.org === 'string' ? payload.org : undefined;
    checkOrigin(origin, requestOrigin);
    if (typeof payload.jti !== 'string') throw new AuthError('invalid_token', 'Refresh token has no id');
    // Tokens from before chain ids name their chain by their first refresh token's id.
    const chainId = typeof payload.cid === 'string' ? payload.cid : payload.jti;
    if (await this.options.onceStore.has(`chain:${chainId}`)) {
      throw new AuthError('refresh_token_reused', 'This session was ended; start a new one');
    }
    const ttlMs = Math.max(1000, payload.exp * 1000 - this.now());
    if (!(await this.options.onceStore.claim(`refresh:${payload.jti}`, ttlMs))) {
      // One of the token's two holders is a thief, and nobody can tell which: the whole chain ends.
      await this.revoke({ conversationId: payload.sub, expiresAt: 0, chainId });
      throw new AuthError('refresh_token_reused', 'This refresh token was already used; start a new session');
    }
    return this.issueInChain(payload.sub, origin, userOf(payload), chainId, randomUUID());
  }

  private async verify(token: string, audience: string): Promise<Claims> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        audience,
        issuer: ISSUER,
        requiredClaims: ['sub', 'exp'],
        currentDate: new Date(this.now()),
      });
      return payload as Claims;
    } catch (cause) {
      if (cause instanceof joseErrors.JWTExpired) throw new AuthError('token_expired', 'Token expired; refresh it', { cause });
      throw new AuthError('invalid_token', 'Token is not valid', { cause });
    }
  }
}

interface Claims {
  sub: string;
  exp: number;
  org?: unknown;
  jti?: string;
  /** A ticket's access-token expiry, seconds. */
  sxp?: unknown;
  /** A ticket's first-use deadline, seconds. */
  fxp?: unknown;
  uid?: unknown;
  unm?: unknown;
  /** 1: the user's identity token carried an email (`TokenUser.emailKnown`). */
  uml?: unknown;
  /** The token chain (see `SessionClaims.chainId`). */
  cid?: unknown;
}

function chainOf(payload: Claims): { chainId?: string } {
  return typeof payload.cid === 'string' ? { chainId: payload.cid } : {};
}

/** The signed-in user a token names: an access token's `uid`, a user token's subject. */
function userOf(payload: Claims, id: unknown = payload.uid): TokenUser | undefined {
  if (typeof id !== 'string') return undefined;
  return { id, ...(typeof payload.unm === 'string' && { name: payload.unm }), ...(payload.uml === 1 && { emailKnown: true as const }) };
}

/** The claims of a signed-in user (none for an anonymous visitor). */
function userClaims(user: TokenUser | undefined): Record<string, string | number> {
  return user ? { uid: user.id, ...userDetails(user) } : {};
}

/** What a token says of its user besides the id: the name, and that the site gave their email. */
function userDetails(user: TokenUser): Record<string, string | number> {
  return { ...(user.name !== undefined && { unm: user.name }), ...(user.emailKnown && { uml: 1 }) };
}

function checkOrigin(bound: string | undefined, requestOrigin: string | undefined): void {
  // Browsers always send Origin on cross-origin requests, so a token bound to one page
  // cannot be used from another page's script.
  if (bound && requestOrigin && bound !== requestOrigin) {
    throw new AuthError('origin_not_allowed', 'This token belongs to another origin');
  }
}
