import type { Answer } from '../../api/types';
import { Badge } from '../../ui/feedback';

export type Campaign = Answer<'/campaigns/{id}', 'get'>;
export type CampaignStatus = Campaign['status'];

const tones = { DRAFT: 'neutral', SCHEDULED: 'warn', SENDING: 'warn', SENT: 'good', CANCELLED: 'bad' } as const;
const labels = { DRAFT: 'Draft', SCHEDULED: 'Scheduled', SENDING: 'Sending', SENT: 'Sent', CANCELLED: 'Cancelled' } as const;

export const STATUSES = Object.keys(labels) as CampaignStatus[];
export const statusLabel = (status: CampaignStatus) => labels[status];

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  return <Badge tone={tones[status]}>{labels[status]}</Badge>;
}

/** docs/campaigns.md: only a DRAFT or SCHEDULED campaign may still be changed or sent. */
export const editable = (c: Campaign) => c.status === 'DRAFT' || c.status === 'SCHEDULED';
