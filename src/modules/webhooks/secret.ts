import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../crypto/secret-box';
import type { Config } from '../../config';

/**
 * An endpoint's signing secret: `whsec_` and the base64 of 24 random bytes, the form Standard Webhooks
 * libraries take. Sealed at rest under ENCRYPTION_KEY, bound to the endpoint, so it opens for no other row.
 */
const context = (endpointId: string, previous = false) => `webhook-endpoint${previous ? '-previous' : ''}:${endpointId}`;

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

export const sealWebhookSecret = (config: Pick<Config, 'ENCRYPTION_KEY'>, endpointId: string, secret: string, previous = false) =>
  new SecretBox(config.ENCRYPTION_KEY).seal(secret, context(endpointId, previous));

export const openWebhookSecret = (config: Pick<Config, 'ENCRYPTION_KEY'>, endpointId: string, sealed: string, previous = false) =>
  new SecretBox(config.ENCRYPTION_KEY).open(sealed, context(endpointId, previous));

/** After a rotation the old secret keeps signing beside the new one for a day, so receivers can switch without a gap. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The masked form shown after the response that created or rotated it. */
export const maskWebhookSecret = () => `whsec_${'*'.repeat(8)}`;

/** The secrets that sign a request now: the current one, and the previous one until its overlap ends. */
export function signingSecrets(
  config: Pick<Config, 'ENCRYPTION_KEY'>,
  endpoint: { id: string; secret: string; previousSecret?: string | null; previousSecretExpiresAt?: Date | null },
  now = new Date(),
): string[] {
  const current = openWebhookSecret(config, endpoint.id, endpoint.secret);
  const previousValid = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now;
  return previousValid ? [current, openWebhookSecret(config, endpoint.id, endpoint.previousSecret!, true)] : [current];
}
