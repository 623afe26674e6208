import { z } from 'zod';
import { PageLimit, cursorPage } from '../../http/cursor';
import { fallbackParam } from '../../http/fallback-param';
import { offsetPage, offsetPageFields } from '../../http/offset-page';
import { resourceId } from '../../http/resource-id';
import { filterTreeInput, FilterTreeSchema } from '../filters/schemas';
import { MAX_TEMPLATE_LENGTH } from '../templates/engine';
import { MessageResponse } from '../templates/schemas';
import { Tags } from '../emails/tags';
import { AUDIENCE_TYPES, CAMPAIGN_STATUSES, CAMPAIGN_TYPES } from './entities';
import { RECIPIENT_FILTERS, RECIPIENT_STATUSES, SKIP_REASONS } from './recipients';
import { WINNER_BY } from '../../../workflows/campaigns/ids';

export const MAX_NAME_LENGTH = 255;
export const CAMPAIGN_SORTS = ['name', 'createdAt', 'updatedAt'] as const;

const oneLine = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[^\r\n\u0000]*$/, 'Must not contain line breaks');

const Status = z.enum(CAMPAIGN_STATUSES);
const Type = z.enum(CAMPAIGN_TYPES);
const AudienceType = z.enum(AUDIENCE_TYPES);

export const CampaignIdParams = z.object({ id: resourceId('CAMPAIGN_NOT_FOUND') });

const required = (field: string, message: string) => ({ code: 'custom' as const, path: [field], message, params: { code: 'required' } });

export const MAX_VARIANTS = 4;

const VariantBody = z
  .object({
    subject: oneLine(998).min(1).optional().describe("Liquid; default: the campaign's subject"),
    body: z.string().min(1).max(MAX_TEMPLATE_LENGTH).optional().describe("HTML with Liquid; default: the campaign's body"),
    from: z.email().max(320).optional().describe("On a verified domain of the project; default: the campaign's sender"),
    fromName: oneLine(255).nullish().describe("Default: the campaign's sender name"),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'A variant changes the subject, body or sender');

export const AbTestBody = z
  .object({
    variants: z.array(VariantBody).min(2).max(MAX_VARIANTS).describe('2 to 4 variants, A to D, numbered from 0 in the API'),
    testPercent: z.number().int().min(1).max(90).describe('Percent of the recipients the variants go to, in equal random parts'),
    waitMinutes: z.number().int().min(1).max(43_200).describe('How long the test share is watched, from when its last email left'),
    winnerBy: z
      .enum(WINNER_BY)
      .describe('The most opens or clicks (in percent of sent) when the wait ends, or chosen by hand (no time limit)'),
  })
  .describe('An A/B test (docs/campaigns.md "A/B tests"); null or absent for none');

/**
 * POST and PUT (a replace): the Campaign fields of docs/campaigns.md "Endpoints". With `templateId`, the template supplies subject, body,
 * from, fromName, replyTo and type wherever the body leaves them out; without one, subject, body and from
 * are required. SEGMENT needs `segmentId`, FILTERED needs `audienceCondition`: a 422 naming the field. The
 * condition's content is checked by the filter engine in the service (a 400 naming the filter).
 */
export const CampaignBody = z
  .object({
    name: oneLine(MAX_NAME_LENGTH).trim().min(1, 'name is required'),
    description: z.string().max(5000).nullish(),
    subject: oneLine(998).min(1).optional().describe('Liquid; rendered per recipient as plain text'),
    body: z.string().min(1).max(MAX_TEMPLATE_LENGTH).optional().describe('HTML with Liquid, rendered per recipient'),
    text: z
      .string()
      .min(1)
      .max(MAX_TEMPLATE_LENGTH)
      .nullish()
      .describe("The plain-text part, with Liquid; default: the template's, else made from the rendered HTML"),
    from: z.email().max(320).optional().describe('Sender address; its domain must be a verified domain of the project'),
    fromName: oneLine(255).nullish(),
    replyTo: z.email().max(320).nullish(),
    type: Type.optional().describe("Default: the template's type, else MARKETING"),
    templateId: z.uuid().nullish().describe('A template of the project whose content fills the fields left out'),
    audienceType: AudienceType,
    segmentId: z.uuid().nullish().describe('Required when audienceType is SEGMENT'),
    audienceCondition: filterTreeInput().optional().describe('Filter tree; required when audienceType is FILTERED'),
    abTest: AbTestBody.nullish(),
    tags: Tags.optional().describe('Carried by every email of the campaign and echoed by its events (docs/sending.md "Tags")'),
    topicId: z
      .uuid()
      .nullish()
      .describe(
        'MARKETING only: a topic of the project; the campaign goes to its members only, and its unsubscribe links leave that topic',
      ),
  })
  .superRefine((b, ctx) => {
    if (!b.templateId) {
      if (b.subject === undefined) ctx.addIssue(required('subject', 'subject is required (or give templateId)'));
      if (b.body === undefined) ctx.addIssue(required('body', 'body is required (or give templateId)'));
      if (b.from === undefined) ctx.addIssue(required('from', 'from is required (or give templateId)'));
    }
    if (b.audienceType === 'SEGMENT' && !b.segmentId) {
      ctx.addIssue(required('segmentId', 'segmentId is required when audienceType is SEGMENT'));
    }
    if (b.audienceType === 'FILTERED' && (b.audienceCondition === undefined || b.audienceCondition === null)) {
      ctx.addIssue(required('audienceCondition', 'audienceCondition is required when audienceType is FILTERED'));
    }
  });
export type CampaignBody = z.infer<typeof CampaignBody>;

export const ListCampaignsQuery = z.object({
  ...offsetPageFields,
  status: Status.optional().describe('An unrecognised value is a 400'),
  search: z.string().max(200).optional().describe('Case-insensitive substring of name, subject or sender address'),
  sort: fallbackParam(CAMPAIGN_SORTS, 'createdAt'),
  dir: fallbackParam(['asc', 'desc'], 'desc'),
});
export type ListCampaignsQuery = z.infer<typeof ListCampaignsQuery>;

export const SendCampaignBody = z
  .object({
    scheduledFor: z
      .unknown()
      .optional()
      .meta({
        type: ['string', 'number', 'null'],
        description:
          'When to send: ISO 8601 (no offset = UTC), an RFC 2822 date, or epoch milliseconds; omitted or null sends now. Unparseable or not in the future: 400',
      }),
  })
  .optional()
  .default({});

export const TestSendBody = z.object({
  email: z.email().max(320).describe('A member of the project; other addresses are refused with 403'),
});

export const CampaignResponse = MessageResponse.extend({
  templateId: z.uuid().nullable(),
  status: Status,
  audienceType: AudienceType,
  segmentId: z.uuid().nullable(),
  audienceCondition: FilterTreeSchema.nullable(),
  topicId: z.uuid().nullable(),
  scheduledFor: z.iso.datetime().nullable(),
  abTest: AbTestBody.nullable(),
  tags: z.record(z.string(), z.string()),
  totalRecipients: z.number().int().describe('The live audience while DRAFT or SCHEDULED; the recipients fixed when sending started after'),
  sentCount: z.number().int(),
  deliveredCount: z.number().int(),
  openedCount: z.number().int(),
  clickedCount: z.number().int(),
  bouncedCount: z.number().int(),
  projectId: z.uuid(),
  sentAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type CampaignResponse = z.infer<typeof CampaignResponse>;

export const WinnerBody = z.object({
  variant: z
    .number()
    .int()
    .min(0)
    .max(MAX_VARIANTS - 1)
    .describe('The variant, from 0 (A)'),
});

const Percent2 = z.number().describe('Percent of the variant’s sentCount, two decimals');

export const VariantsResponse = z.object({
  winnerBy: z.enum(WINNER_BY).nullable(),
  testPercent: z.number().int().nullable(),
  waitMinutes: z.number().int().nullable(),
  winner: z.number().int().nullable().describe('The variant sent to the rest, once decided'),
  decidedBy: z.enum(WINNER_BY).nullable().describe('OPENS or CLICKS when the wait decided it; MANUAL when a person did'),
  decidedAt: z.iso.datetime().nullable(),
  variants: z.array(
    z.object({
      variant: z.number().int(),
      name: z.string().describe('A to D'),
      subject: z.string(),
      from: z.string(),
      fromName: z.string().nullable(),
      recipients: z.number().int().describe('Recipients of the test share given this variant'),
      sentCount: z.number().int(),
      deliveredCount: z.number().int(),
      openedCount: z.number().int(),
      clickedCount: z.number().int(),
      bouncedCount: z.number().int(),
      complainedCount: z.number().int(),
      openRate: Percent2,
      clickRate: Percent2,
    }),
  ),
});
export type VariantsResponse = z.infer<typeof VariantsResponse>;

export const WinnerResponse = z.object({ success: z.literal(true), data: VariantsResponse, message: z.string() });

export const CampaignEnvelope = z.object({ success: z.literal(true), data: CampaignResponse });

export const CampaignPage = offsetPage(CampaignResponse);

export const SendResponse = z.object({
  success: z.literal(true),
  data: z.object({ id: z.uuid(), name: z.string(), status: Status, scheduledFor: z.iso.datetime().nullable() }),
  message: z.string(),
});

export const CancelResponse = z.object({
  success: z.literal(true),
  data: CampaignResponse,
  message: z.string(),
});

export const TestSendResponse = z.object({
  success: z.literal(true),
  data: z.object({ emailId: z.uuid(), to: z.string(), subject: z.string() }),
  message: z.string(),
});

const Percent = z.number().describe('Percent of sentCount, two decimals; 0 when nothing was sent');

export const StatsResponse = z.object({
  totalRecipients: z.number().int(),
  sentCount: z.number().int(),
  deliveredCount: z.number().int(),
  openedCount: z.number().int(),
  clickedCount: z.number().int(),
  bouncedCount: z.number().int(),
  complainedCount: z.number().int(),
  unsubscribedCount: z.number().int(),
  cappedCount: z
    .number()
    .int()
    .describe("Recipients the project's frequency cap held back (their status SKIPPED, reason FREQUENCY_CAPPED)"),
  openRate: Percent,
  clickRate: Percent,
  bounceRate: Percent,
  deliveryRate: Percent,
});
export type StatsResponse = z.infer<typeof StatsResponse>;

export const RecipientsQuery = z.object({
  status: z
    .enum(RECIPIENT_FILTERS)
    .optional()
    .describe(
      'PENDING, FAILED, SUPPRESSED, SKIPPED, NOT_ATTEMPTED, CONTACT_DELETED: recipients in that state; SENT, DELIVERED, OPENED, CLICKED, BOUNCED, COMPLAINED: whose email reached that stage (as the stats count them); NOT_SENT: every recipient whose email was never handed to SMTP; none: all',
    ),
  cursor: z.string().optional(),
  limit: PageLimit,
});

const Instant = z.iso.datetime().nullable();

export const RecipientResponse = z.object({
  position: z.number().int().describe('Place in the audience fixed when sending started, from 0'),
  contactId: z.uuid(),
  email: z.string().nullable().describe('The address the email went to, else the contact’s; null once the contact is deleted'),
  status: z.enum(RECIPIENT_STATUSES).describe("The email's status, or why there is none"),
  reason: z.enum(SKIP_REASONS).nullable().describe('Why a SKIPPED recipient got no email'),
  detail: z.string().nullable().describe("A SKIPPED recipient's render error or refusal; a FAILED or SUPPRESSED email's error"),
  emailId: z.uuid().nullable(),
  sentAt: Instant,
  deliveredAt: Instant,
  openedAt: Instant,
  clickedAt: Instant,
  bouncedAt: Instant,
  complainedAt: Instant,
  failedAt: Instant,
});

export const RecipientPage = cursorPage(RecipientResponse);

export const CampaignLinks = z.object({
  links: z
    .array(z.object({ url: z.string(), clicks: z.number().int(), recipients: z.number().int().describe('Recipients who clicked it') }))
    .describe('Most clicked first, at most 100'),
});
export type CampaignLinks = z.infer<typeof CampaignLinks>;
