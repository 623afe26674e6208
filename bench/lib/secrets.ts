import { randomBytes } from 'node:crypto';

/** Fresh secrets for a benchmark's own settings: nothing a benchmark signs or encrypts outlives its run. */
export const freshSecrets = () => ({
  JWT_SECRET: randomBytes(32).toString('hex'),
  ENCRYPTION_KEY: randomBytes(32).toString('hex'),
});
