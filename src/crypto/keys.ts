import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const digest = (value: string) => createHash('sha256').update(value).digest('hex');

export const newSecretKey = () => `sk_${randomBytes(24).toString('base64url')}`;
export const newPublicKey = () => `pk_${randomBytes(24).toString('base64url')}`;
export const newToken = () => randomBytes(32).toString('base64url');

export const maskSecret = (hint: string) => `sk_${'*'.repeat(24)}${hint}`;
export const secretHint = (secret: string) => secret.slice(-4);

/** Whether a presented secret equals the expected one, in time that tells nothing of where they differ (compared as digests). */
export const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());
