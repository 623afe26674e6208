import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

export const SESSION_COOKIE = 'postwire_session';
export const SESSION_TTL_SECONDS = 7 * 24 * 60 * 60;

export interface SessionClaims {
  userId: string;
  /** The user's session version when the token was issued; a token of an older version is void. */
  version: number;
  /** Names this session, so that logout can end it alone. */
  sessionId: string;
  expiresAt: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class SessionSigner {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  sign(user: { id: string; sessionVersion: number }): Promise<string> {
    return new SignJWT({ sv: user.sessionVersion })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.id)
      .setJti(randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
      .sign(this.key);
  }

  /** The claims of a valid, unexpired session token, else null; a token without a session id is void too. */
  async verify(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.sub !== 'string' || typeof payload.jti !== 'string' || !UUID.test(payload.jti)) return null;
      if (typeof payload.exp !== 'number') return null;
      return {
        userId: payload.sub,
        version: typeof payload.sv === 'number' ? payload.sv : 0,
        sessionId: payload.jti,
        expiresAt: new Date(payload.exp * 1000),
      };
    } catch {
      return null;
    }
  }
}
