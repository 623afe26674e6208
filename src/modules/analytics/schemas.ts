import { z } from 'zod';
import { offsetPageFields, offsetPageShape } from '../../http/offset-page';
import { CAMPAIGN_STATUSES } from '../campaigns/entities';
import { MAX_PAGE as MAX_PAGE_SIZE } from '../../http/cursor';
import { RangeResponse, rangeFields } from './range';
import { CAMPAIGN_METRICS, INTERVALS, MAX_POINTS, type CampaignMetric } from './service';
import { RATES, STAGES } from './stages';

const Count = z.number().int().min(0);
const Rate = z.number().min(0).describe('Percent of sent, two decimals');
const stageShape = Object.fromEntries(STAGES.map((s) => [s, Count])) as Record<(typeof STAGES)[number], typeof Count>;
const rateShape = Object.fromEntries(Object.keys(RATES).map((r) => [r, Rate])) as Record<keyof typeof RATES, typeof Rate>;

const Limit = (fallback: number) =>
  z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(fallback).describe(`1-${MAX_PAGE_SIZE}, default ${fallback}`);

export const TimeseriesQuery = z.object({
  ...rangeFields,
  interval: z
    .enum(Object.keys(INTERVALS) as Array<keyof typeof INTERVALS>)
    .default('day')
    .describe(`UTC hours or days; at most ${MAX_POINTS} points, the latest of a longer range`),
});

export const TimeseriesResponse = z.object({
  interval: z.enum(Object.keys(INTERVALS) as Array<keyof typeof INTERVALS>),
  ...RangeResponse,
  points: z
    .array(z.object({ time: z.iso.datetime().describe('Start of the bucket (UTC)'), ...stageShape }))
    .describe('Every bucket of the range, oldest first, zero when nothing happened; each stage counted at the time it was reached'),
  totals: z.object(stageShape),
});

export const ContactsGrowthQuery = TimeseriesQuery;

export const ContactsGrowthResponse = z.object({
  interval: z.enum(Object.keys(INTERVALS) as Array<keyof typeof INTERVALS>),
  ...RangeResponse,
  before: Count.describe('Contacts created before `from` that exist now'),
  points: z
    .array(
      z.object({
        time: z.iso.datetime().describe('Start of the bucket (UTC)'),
        created: Count.describe('Contacts created in the bucket that exist now'),
        total: Count.describe('Contacts at the end of the bucket, counting those that exist now'),
      }),
    )
    .describe('Every bucket of the range, oldest first'),
  totals: z.object({ created: Count.describe('Created in the range'), total: Count.describe('At the end of the range') }),
});

export const TopCampaignsQuery = z.object({
  ...rangeFields,
  metric: z
    .enum(CAMPAIGN_METRICS as [CampaignMetric, ...CampaignMetric[]])
    .default('sent')
    .describe('What to rank by'),
  limit: Limit(10),
});

const CampaignFigures = z.object({
  id: z.uuid(),
  name: z.string(),
  status: z.enum(CAMPAIGN_STATUSES),
  sentAt: z.iso.datetime().nullable(),
  ...stageShape,
  ...rateShape,
});

export const TopCampaignsResponse = z.object({
  metric: z.enum(CAMPAIGN_METRICS as [CampaignMetric, ...CampaignMetric[]]),
  ...RangeResponse,
  campaigns: z.array(CampaignFigures).describe('Campaigns with activity in the range, best first'),
});

export const CampaignStatsQuery = z.object({
  ...rangeFields,
  ...offsetPageFields,
});

export const CampaignStatsResponse = z.object({
  ...RangeResponse,
  data: z.array(CampaignFigures).describe('Campaigns with activity in the range, most recently sent first'),
  ...offsetPageShape,
  totals: z.object({ ...stageShape, ...rateShape }).describe('All campaign email of the range'),
});

export const TopEventsQuery = z.object({ ...rangeFields, limit: Limit(10) });

export const TopEventsResponse = z.object({
  ...RangeResponse,
  events: z.array(z.object({ name: z.string(), count: Count })).describe('Custom event names, most frequent first'),
});
