import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';

export const User = defineEntity({
  name: 'User',
  tableName: 'users',
  properties: {
    ...baseColumns,
    email: p.string().unique(),
    /** Null for a user invited to a project who has not set a password yet. */
    passwordHash: p.string().nullable(),
    emailVerified: p.boolean().default(false),
    /** Carried in session tokens; a password reset bumps it so older sessions stop working. */
    sessionVersion: p.integer().default(0),
  },
});
export type User = InferEntity<typeof User>;

export const TOKEN_PURPOSES = ['VERIFY_EMAIL', 'RESET_PASSWORD'] as const;
export type TokenPurpose = (typeof TOKEN_PURPOSES)[number];

/** Single-use tokens mailed to users; only their SHA-256 digest is stored. */
export const UserToken = defineEntity({
  name: 'UserToken',
  tableName: 'user_tokens',
  properties: {
    ...baseColumns,
    userId: p.uuid().index(),
    purpose: p.enum([...TOKEN_PURPOSES]),
    tokenDigest: p.string().unique(),
    expiresAt: p.datetime(),
    usedAt: p.datetime().nullable(),
  },
});
export type UserToken = InferEntity<typeof UserToken>;
