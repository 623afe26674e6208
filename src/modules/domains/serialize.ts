import type { Domain } from './entities';
import type { DomainResponse } from './schemas';

export function serializeDomain(d: Domain): DomainResponse {
  return {
    id: d.id,
    projectId: d.projectId,
    domain: d.domain,
    verified: d.verified,
    verifiedAt: d.verifiedAt?.toISOString() ?? null,
    lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
    records: d.records.map(({ type, name, value, purpose, status }) => ({ type, name, value, purpose, status })),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}
