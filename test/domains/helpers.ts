import { randomUUID } from 'node:crypto';
import type { ApiTarget } from '../helpers/stack';
import type { TestProject } from '../helpers/fixtures';

export interface DomainBody {
  id: string;
  projectId: string;
  domain: string;
  verified: boolean;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  records: Array<{ type: 'TXT'; name: string; value: string; purpose: 'DKIM' | 'SPF' | 'DMARC'; status: string }>;
  createdAt: string;
  updatedAt: string;
}

export const bearer = (project: TestProject) => `Bearer ${project.secret}`;

/** A domain name no other test uses, under the reserved `.test` TLD. */
export const uniqueDomain = (prefix = 'mail') => `${prefix}-${randomUUID().slice(0, 8)}.example.test`;

export async function addDomain(stack: ApiTarget, project: TestProject, domain = uniqueDomain()): Promise<DomainBody> {
  const res = await stack.http().post('/domains').set('Authorization', bearer(project)).send({ domain });
  if (res.status !== 201) throw new Error(`POST /domains answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as DomainBody;
}

export const recordOf = (domain: DomainBody, purpose: 'DKIM' | 'SPF' | 'DMARC') => {
  const record = domain.records.find((r) => r.purpose === purpose);
  if (!record) throw new Error(`no ${purpose} record on ${domain.domain}`);
  return record;
};

/** Publishes the record exactly as the API asked for it, on the stack's DNS server. */
export function publish(stack: ApiTarget, domain: DomainBody, purpose: 'DKIM' | 'SPF' | 'DMARC'): void {
  const { name, value } = recordOf(domain, purpose);
  stack.dns.set(name, [{ type: 'TXT', value }]);
}

export async function getDomain(stack: ApiTarget, project: TestProject, id: string): Promise<DomainBody> {
  const res = await stack.http().get(`/domains/${id}`).set('Authorization', bearer(project)).expect(200);
  return res.body as DomainBody;
}

export async function listDomains(stack: ApiTarget, project: TestProject): Promise<DomainBody[]> {
  const res = await stack.http().get(`/domains/project/${project.id}`).set('Authorization', bearer(project)).expect(200);
  return res.body as DomainBody[];
}
