import type { Answer } from '../../api/types';
import { Badge } from '../../ui/feedback';

export type Domain = Answer<'/domains/{id}', 'get'>;
export type DnsRecord = Domain['records'][number];

/** A domain sends once its DKIM record is found; until then it is pending. */
export function DomainStatus({ domain }: { domain: Domain }) {
  return domain.verified ? <Badge tone="good">Verified</Badge> : <Badge tone="warn">Pending</Badge>;
}

const recordTones = { PENDING: 'warn', VERIFIED: 'good', FAILED: 'bad' } as const;
const recordLabels = { PENDING: 'Not found yet', VERIFIED: 'Found', FAILED: 'Wrong value' } as const;

export function RecordStatus({ record }: { record: DnsRecord }) {
  return <Badge tone={recordTones[record.status]}>{recordLabels[record.status]}</Badge>;
}
