import type { SegmentInUse } from '../segments/in-use';
import { Campaign } from './entities';

/**
 * Campaigns that still need the segment (docs/segments.md: DELETE is a 409 while an active campaign uses the segment): those of
 * the project with it as their audience that are DRAFT, SCHEDULED or SENDING (docs/segments.md). A SENT or
 * CANCELLED campaign keeps naming the segment it went to.
 */
export const activeCampaignsUsing: SegmentInUse = (em, projectId, segmentId) =>
  em.count(Campaign, { projectId, segmentId, status: { $in: ['DRAFT', 'SCHEDULED', 'SENDING'] } });
