import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Campaigns that still need the segment (api.md: DELETE is 409 "if used by an active campaign"). There are
 * no campaigns yet: the campaigns module replaces this body with a count of the project's campaigns with
 * this segmentId whose status is DRAFT, SCHEDULED or SENDING (see docs/segments.md).
 */
export async function activeCampaignsUsing(_em: EntityManager, _projectId: string, _segmentId: string): Promise<number> {
  return 0;
}
