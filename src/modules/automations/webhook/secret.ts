import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../../crypto/secret-box';
import type { Config } from '../../../config';

/**
 * Each workflow has its own signing secret for its WEBHOOK steps (docs/automations.md): a receiver that
 * serves several workflows can tell them apart, and one leaked secret exposes one workflow. Sealed at rest.
 */
const context = (automationId: string) => `automation-webhook:${automationId}`;

export function sealedNewWebhookSecret(config: Pick<Config, 'ENCRYPTION_KEY'>, automationId: string): string {
  const secret = `whsec_${randomBytes(32).toString('base64url')}`;
  return new SecretBox(config.ENCRYPTION_KEY).seal(secret, context(automationId));
}

export function openWebhookSecret(config: Pick<Config, 'ENCRYPTION_KEY'>, automation: { id: string; webhookSecret: string }): string {
  return new SecretBox(config.ENCRYPTION_KEY).open(automation.webhookSecret, context(automation.id));
}
