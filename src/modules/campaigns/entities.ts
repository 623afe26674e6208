import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';
import type { FilterTree } from '../filters/schemas';
import type { EmailTags } from '../emails/tags';
import { TEMPLATE_TYPES, messageColumns } from '../templates/entities';

export const CAMPAIGN_STATUSES = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const AUDIENCE_TYPES = ['ALL', 'SEGMENT', 'FILTERED'] as const;
export type AudienceType = (typeof AUDIENCE_TYPES)[number];

/** Campaign types are the template types (docs/campaigns.md). */
export const CAMPAIGN_TYPES = TEMPLATE_TYPES;

export const Campaign = defineEntity({
  name: 'Campaign',
  tableName: 'campaigns',
  properties: {
    ...baseColumns,
    projectId: p.uuid(),
    ...messageColumns(),
    /** The template the content was taken from; the campaign keeps its own copy. */
    templateId: p.uuid().nullable(),
    status: p.enum([...CAMPAIGN_STATUSES]),
    audienceType: p.enum([...AUDIENCE_TYPES]),
    segmentId: p.uuid().nullable(),
    audienceCondition: p.json<FilterTree>().nullable(),
    /** A MARKETING campaign about a topic goes to its members only (docs/consent.md). */
    topicId: p.uuid().nullable(),
    scheduledFor: p.datetime().nullable(),
    /** The send under way (SCHEDULED or SENDING); see migration 0015. */
    sendId: p.uuid().nullable(),
    /** Fixed when a send starts; live while DRAFT or SCHEDULED (see audience.ts). */
    totalRecipients: p.integer().default(0),
    sentAt: p.datetime().nullable(),
    /** Every email of the campaign carries them (docs/sending.md "Tags"). */
    tags: p.json<EmailTags>(),
  },
});
export type Campaign = InferEntity<typeof Campaign>;
