import type { EntityManager } from '@mikro-orm/postgresql';
import { campaignCounts, type CampaignCounts } from './counts';
import type { Campaign } from './entities';
import type { CampaignResponse } from './schemas';
import { serializeMessage } from '../templates/serialize';

export const serializeCampaign = (c: Campaign, counts: CampaignCounts): CampaignResponse => ({
  ...serializeMessage(c),
  templateId: c.templateId ?? null,
  status: c.status,
  audienceType: c.audienceType,
  segmentId: c.segmentId ?? null,
  audienceCondition: c.audienceCondition ?? null,
  topicId: c.topicId ?? null,
  scheduledFor: c.scheduledFor?.toISOString() ?? null,
  abTest: c.abTest ?? null,
  tags: c.tags,
  totalRecipients: counts.totalRecipients,
  sentCount: counts.sentCount,
  deliveredCount: counts.deliveredCount,
  openedCount: counts.openedCount,
  clickedCount: counts.clickedCount,
  bouncedCount: counts.bouncedCount,
  projectId: c.projectId,
  sentAt: c.sentAt?.toISOString() ?? null,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
});

/** The campaign as the API shows it, with its figures derived now. */
export const campaignView = async (em: EntityManager, c: Campaign): Promise<CampaignResponse> =>
  serializeCampaign(c, await campaignCounts(em, c));
