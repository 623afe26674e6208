import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { baseColumns } from '../../db/columns';
import type { FilterTree } from '../filters/schemas';
import { WINNER_BY, type WinnerBy } from '../../../workflows/campaigns/ids';
import type { EmailTags } from '../emails/tags';
import { TEMPLATE_TYPES, messageColumns } from '../templates/entities';

export const CAMPAIGN_STATUSES = ['DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const AUDIENCE_TYPES = ['ALL', 'SEGMENT', 'FILTERED'] as const;
export type AudienceType = (typeof AUDIENCE_TYPES)[number];

/** Campaign types are the template types (docs/campaigns.md). */
export const CAMPAIGN_TYPES = TEMPLATE_TYPES;

/** An A/B test's variant (docs/campaigns.md "A/B tests"): what it changes; the campaign's own value for whatever it leaves out. */
export interface Variant {
  subject?: string | undefined;
  body?: string | undefined;
  from?: string | undefined;
  fromName?: string | null | undefined;
}

export interface AbTest {
  variants: Variant[];
  testPercent: number;
  waitMinutes: number;
  winnerBy: WinnerBy;
}

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
    /** An A/B test (migration 0091); null for none. */
    abTest: p.json<AbTest>().nullable(),
    /** The variant sent to the rest, once decided, and how. */
    abWinner: p.smallint().nullable(),
    abDecidedBy: p.enum([...WINNER_BY]).nullable(),
    abDecidedAt: p.datetime().nullable(),
    /** Every email of the campaign carries them (docs/sending.md "Tags"). */
    tags: p.json<EmailTags>(),
  },
});
export type Campaign = InferEntity<typeof Campaign>;
