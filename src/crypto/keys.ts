import { createHash, randomBytes } from 'node:crypto';

export const digest = (value: string) => createHash('sha256').update(value).digest('hex');

export const newSecretKey = () => `sk_${randomBytes(24).toString('base64url')}`;
export const newPublicKey = () => `pk_${randomBytes(24).toString('base64url')}`;
export const newToken = () => randomBytes(32).toString('base64url');

export const maskSecret = (hint: string) => `sk_${'*'.repeat(24)}${hint}`;
export const secretHint = (secret: string) => secret.slice(-4);
