import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { AuthError } from '../errors.js';

const ISSUER = 'parley-bff';
const RESUME_AUDIENCE = 'parley-resume';
const UNSUBSCRIBE_AUDIENCE = 'parley-unsubscribe';
// An unsubscribe link keeps working long after the email: a year.
const UNSUBSCRIBE_TTL_SEC = 365 * 86_400;

/** What a resume link proves: one conversation, once, until it expires. */
export interface ResumeClaims {
  conversationId: string;
  /** The link's id, spent on its first use. */
  linkId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/**
 * The two links of an email (docs/api.md "Continuity by email"): a resume token, which opens the
 * conversation in the widget once, and an unsubscribe token for one address and conversation.
 * Signed with the session key, under audiences of their own, so neither is ever taken for the other
 * or for a session token.
 */
export class LinkTokens {
  private readonly key: KeyObject;

  constructor(
    secret: string,
    private readonly resumeTtlSec: number,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  resume(conversationId: string): Promise<string> {
    return this.sign(conversationId, RESUME_AUDIENCE, this.resumeTtlSec, { jti: randomUUID() });
  }

  unsubscribe(conversationId: string, email: string): Promise<string> {
    return this.sign(conversationId, UNSUBSCRIBE_AUDIENCE, UNSUBSCRIBE_TTL_SEC, { eml: email });
  }

  /** The claims of a resume token; `401 invalid_token` when it is not one, or has expired. */
  async checkResume(token: unknown): Promise<ResumeClaims> {
    const payload = await this.verify(token, RESUME_AUDIENCE, 'This link has expired; the conversation stays in your email');
    if (typeof payload.jti !== 'string') throw new AuthError('invalid_token', 'This link is not valid');
    return { conversationId: payload.sub!, linkId: payload.jti, expiresAt: payload.exp! };
  }

  /** The conversation and address of an unsubscribe token; `401 invalid_token` otherwise. */
  async checkUnsubscribe(token: unknown): Promise<{ conversationId: string; email: string }> {
    const payload = await this.verify(token, UNSUBSCRIBE_AUDIENCE, 'This link has expired');
    if (typeof payload.eml !== 'string') throw new AuthError('invalid_token', 'This link is not valid');
    return { conversationId: payload.sub!, email: payload.eml };
  }

  private async sign(conversationId: string, audience: string, ttlSec: number, extra: { jti?: string; eml?: string }): Promise<string> {
    const nowSec = Math.floor(this.now() / 1000);
    const jwt = new SignJWT(extra.eml === undefined ? {} : { eml: extra.eml })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(conversationId)
      .setAudience(audience)
      .setIssuer(ISSUER)
      .setIssuedAt(nowSec)
      .setExpirationTime(nowSec + ttlSec);
    if (extra.jti !== undefined) jwt.setJti(extra.jti);
    return jwt.sign(this.key);
  }

  private async verify(token: unknown, audience: string, expired: string) {
    if (typeof token !== 'string' || token.length > 2048) throw new AuthError('invalid_token', 'This link is not valid');
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], audience, issuer: ISSUER, requiredClaims: ['sub', 'exp'], currentDate: new Date(this.now()) });
      return payload;
    } catch (cause) {
      // The widget has nothing to refresh here: an expired link is as spent as a used one.
      if (cause instanceof joseErrors.JWTExpired) throw new AuthError('invalid_token', expired, { cause });
      throw new AuthError('invalid_token', 'This link is not valid', { cause });
    }
  }
}
