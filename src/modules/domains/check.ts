import type { EntityManager } from '@mikro-orm/postgresql';
import type { DnsResolver } from '../../dns/resolver';
import type { Domain } from './entities';
import { checkRecords } from './dns-check';
import { forgetVerifiedSender } from './verified-senders';

/** Looks the domain's records up now and saves the outcome. Verified means the DKIM record matches. */
export async function checkDomain(em: EntityManager, dns: DnsResolver, domain: Domain, now = new Date()): Promise<Domain> {
  domain.records = await checkRecords(dns, domain.records);
  const verified = domain.records.some((r) => r.purpose === 'DKIM' && r.status === 'VERIFIED');
  if (verified !== domain.verified) domain.verifiedAt = verified ? now : null;
  domain.verified = verified;
  domain.lastCheckedAt = now;
  await em.flush();
  if (!verified) forgetVerifiedSender(domain.projectId, domain.domain);
  return domain;
}
