import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { digest, newToken } from '../../crypto/keys';
import { ApiError } from '../../http/errors';
import { User, UserToken, type TokenPurpose } from './entities';

const HOUR = 60 * 60 * 1000;

/** How long each kind of mailed link stays valid; an invitation's link (set a password, or verify) lasts longest. */
export const TOKEN_TTL_MS = {
  verification: 24 * HOUR,
  passwordReset: HOUR,
  invitation: 7 * 24 * HOUR,
} as const;

/** The shortest interval between two mails of one purpose to one user. */
export const RESEND_INTERVAL_MS = 60 * 1000;

const invalidToken = () =>
  new ApiError(400, 'INVALID_TOKEN', 'This link is invalid, has expired or was already used', {
    suggestion: 'Request a new email and use the link it contains.',
  });

/** Adds a fresh token to the unit of work and returns it in clear; only its digest is stored. */
export function issueToken(em: EntityManager, userId: string, purpose: TokenPurpose, ttlMs: number): string {
  const token = newToken();
  em.create(UserToken, { userId, purpose, tokenDigest: digest(token), expiresAt: new Date(Date.now() + ttlMs), usedAt: null });
  return token;
}

/** Seconds until another mail of this purpose may go to the user, or 0 when it may go now. */
export async function resendWaitSeconds(em: EntityManager, userId: string, purpose: TokenPurpose): Promise<number> {
  const last = await em.findOne(UserToken, { userId, purpose }, { orderBy: { createdAt: 'desc' } });
  if (!last) return 0;
  const wait = last.createdAt.getTime() + RESEND_INTERVAL_MS - Date.now();
  return wait > 0 ? Math.ceil(wait / 1000) : 0;
}

/**
 * The unused, unexpired token of one of `purposes`, with its user; 400 INVALID_TOKEN otherwise. Must run inside a
 * transaction: the token row is locked so that two concurrent uses cannot both succeed.
 */
export async function usableToken(
  em: EntityManager,
  token: string,
  purposes: readonly TokenPurpose[],
): Promise<{ row: UserToken; user: User }> {
  const row = await em.findOne(UserToken, { tokenDigest: digest(token) }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!row || !purposes.includes(row.purpose) || row.usedAt || row.expiresAt.getTime() <= Date.now()) throw invalidToken();
  const user = await em.findOne(User, { id: row.userId });
  if (!user) throw invalidToken();
  return { row, user };
}

/** Spends a token with every other unused token of its user and purpose, so one completed use voids the older links. */
export async function spendToken(em: EntityManager, row: UserToken): Promise<void> {
  await em.nativeUpdate(UserToken, { userId: row.userId, purpose: row.purpose, usedAt: null }, { usedAt: new Date() });
}
