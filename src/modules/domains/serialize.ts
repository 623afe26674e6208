import type { Domain } from './entities';
import type { DomainResponse } from './schemas';

export function serializeDomain(d: Domain): DomainResponse {
  return {
    id: d.id,
    projectId: d.projectId,
    domain: d.domain,
    verified: d.verified,
    inbound: d.inbound,
    verifiedAt: d.verifiedAt?.toISOString() ?? null,
    lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
    records: d.records.map((r) =>
      r.type === 'MX'
        ? { type: r.type, name: r.name, value: r.value, priority: r.priority, purpose: r.purpose, status: r.status }
        : { type: r.type, name: r.name, value: r.value, purpose: r.purpose, status: r.status },
    ),
    createdAt: d.createdAt.toISOString(),
    updatedAt: d.updatedAt.toISOString(),
  };
}
