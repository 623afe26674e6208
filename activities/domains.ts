import type { Deps } from '../src/deps';
import { Domain } from '../src/modules/domains/entities';
import { checkDomain } from '../src/modules/domains/check';

export function createDomainActivities(deps: Deps) {
  return {
    /** Re-reads the domain (it may have been deleted meanwhile) and checks its DNS; safe to repeat. */
    async checkDomainDns(domainId: string): Promise<{ exists: boolean; verified: boolean }> {
      const em = deps.orm.em.fork();
      const domain = await em.findOne(Domain, { id: domainId });
      if (!domain) return { exists: false, verified: false };
      const before = domain.verified;
      await checkDomain(em, deps.dns, domain);
      if (domain.verified !== before) {
        deps.logger.info({ domainId, domain: domain.domain, verified: domain.verified }, 'domain verification changed');
      }
      return { exists: true, verified: domain.verified };
    },
  };
}

export type DomainActivities = ReturnType<typeof createDomainActivities>;
