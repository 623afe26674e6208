import type { SegmentInUse } from '../segments/in-use';
import { Campaign } from './entities';

/**
 * Campaigns that still need the segment (api.md: DELETE is 409 "if used by an active campaign"): those of
 * the project with it as their audience that are DRAFT, SCHEDULED or SENDING (docs/segments.md). A SENT or
 * CANCELLED campaign keeps naming the segment it went to.
 */
export const activeCampaignsUsing: SegmentInUse = (em, projectId, segmentId) =>
  em.count(Campaign, { projectId, segmentId, status: { $in: ['DRAFT', 'SCHEDULED', 'SENDING'] } });
