import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { SecretBox } from '../../crypto/secret-box';
import { ApiError } from '../../http/errors';
import { Domain } from './entities';
import { dkimKeyOf, type DkimKey } from './dkim';
import { domainOfAddress } from './hostname';

/**
 * The verified domain of the project that `fromAddress` (a bare email address) sends from; otherwise the 403
 * the contract gives this case (docs/domains.md "Choices"). Only the exact domain counts, not a parent.
 */
export async function assertVerifiedSender(em: EntityManager, projectId: string, fromAddress: string): Promise<Domain> {
  const name = domainOfAddress(fromAddress);
  const domain = name ? await em.findOne(Domain, { projectId, domain: name, verified: true }) : null;
  if (domain) return domain;
  throw new ApiError(403, 'INTERNAL_SERVER_ERROR', `The sender domain ${name ?? fromAddress} is not verified in this project`, {
    details: { domain: name },
    suggestion: 'Add the domain with POST /domains, publish its DKIM record, then check it with GET /domains/{id}/verify.',
  });
}

/**
 * The DKIM signing key for mail from `fromAddress`, decrypted; null when the project no longer has that
 * domain (deleted after the message was accepted).
 */
export async function dkimKeyForSender(em: EntityManager, config: Config, projectId: string, fromAddress: string): Promise<DkimKey | null> {
  const name = domainOfAddress(fromAddress);
  const domain = name ? await em.findOne(Domain, { projectId, domain: name }) : null;
  return domain ? dkimKeyOf(new SecretBox(config.ENCRYPTION_KEY), domain) : null;
}
