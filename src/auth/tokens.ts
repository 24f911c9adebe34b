import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { type Db, sql } from '../infra/db/db.ts';

export const ACCESS_TOKEN_SECONDS = 60 * 60;
export const REFRESH_TOKEN_SECONDS = 7 * 24 * 60 * 60;

export interface IssuedTokens {
  token: string;
  refreshToken: string;
  /** Unix time (seconds) at which the refresh token expires. */
  refreshExpiresIn: number;
}

type TokenUse = 'access' | 'refresh';

const VERIFIED_CACHE_SIZE = 10_000;

/**
 * JWTs signed with HS256 and a secret kept in the database, so every API process sharing the
 * database accepts every other's tokens. Only HS256 is accepted (no `alg: none`).
 */
export class TokenService {
  /**
   * Tokens whose signature already checked out, with their claims: verifying one is a pure
   * function of the token and the secret, so a repeat needs only the expiry compared again.
   * Revocation is not decided here (see KeyScopes).
   */
  private readonly verified = new Map<string, { sub: string; use: unknown; exp: number }>();

  private constructor(private readonly secret: Uint8Array) {}

  static async load(db: Db): Promise<TokenService> {
    await db.query(
      sql(
        'insertJwtSecret',
        "INSERT INTO service_secrets (name, value) VALUES ('jwt', $1) ON CONFLICT (name) DO NOTHING",
      ),
      [randomBytes(32).toString('base64url')],
    );
    const { rows } = await db.query<{ value: string }>(
      sql('selectJwtSecret', "SELECT value FROM service_secrets WHERE name = 'jwt'"),
    );
    return new TokenService(Buffer.from(rows[0].value, 'base64url'));
  }

  /** Signs a token; `expiresAt` (unix seconds) may be given to build expired tokens in tests. */
  async sign(keyId: string, use: TokenUse, expiresAt?: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const ttl = use === 'access' ? ACCESS_TOKEN_SECONDS : REFRESH_TOKEN_SECONDS;
    return new SignJWT({ use })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(keyId)
      .setIssuedAt(now)
      .setJti(randomBytes(9).toString('base64url'))
      .setExpirationTime(expiresAt ?? now + ttl)
      .sign(this.secret);
  }

  async issue(keyId: string): Promise<IssuedTokens> {
    const refreshExpiresIn = Math.floor(Date.now() / 1000) + REFRESH_TOKEN_SECONDS;
    return {
      token: await this.sign(keyId, 'access'),
      refreshToken: await this.sign(keyId, 'refresh', refreshExpiresIn),
      refreshExpiresIn,
    };
  }

  /** The key id a valid token of that use was issued for, or null (bad signature, expired, wrong use). */
  /** verify() for a token verified before, without waiting; undefined: not known yet, ask verify(). */
  verifiedBefore(token: string, use: TokenUse): string | null | undefined {
    const hit = this.verified.get(token);
    if (!hit) return undefined;
    if (hit.exp * 1000 <= Date.now()) {
      this.verified.delete(token);
      return null;
    }
    return hit.use === use ? hit.sub : null;
  }

  async verify(token: string, use: TokenUse): Promise<string | null> {
    const before = this.verifiedBefore(token, use);
    if (before !== undefined) return before;
    try {
      const { payload } = await jwtVerify(token, this.secret, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
      if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { sub: payload.sub, use: payload.use, exp: payload.exp });
      return payload.use === use ? payload.sub : null;
    } catch (err) {
      if (err instanceof errors.JOSEError || err instanceof TypeError) return null;
      throw err;
    }
  }
}
