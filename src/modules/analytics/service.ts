import type { EntityManager } from '@mikro-orm/postgresql';
import { RESERVED_EVENT_PATTERNS } from '../events/reserved';
import { DAY_MS, HOUR_MS, alignRange, rangeView, type Range } from './range';
import type { Config } from '../../config';
import { countedRows } from '../emails/counted';
import { RATES, STAGES, rateSql, ratesOf, stageCountsOf, stageSums, type RateName, type Stage, type StageCounts } from './stages';
import { offsetOf, pageOf } from '../../http/offset-page';

/** Whether simulated mail counts (docs/security.md "Simulated mail"). */
export type Counting = Pick<Config, 'REPUTATION_COUNT_SIMULATED'>;

/**
 * Analytics read the rollups of migration 0024 only, never the emails or events themselves: a query touches
 * one row per hour (and campaign) of its range, however many millions of emails the project has.
 */

export const INTERVALS = { hour: HOUR_MS, day: DAY_MS } as const;
export type Interval = keyof typeof INTERVALS;
export const MAX_POINTS = 1000;

/**
 * The range widened to whole buckets of `interval`, and how many there are: none for an empty range, at most
 * MAX_POINTS, the latest ones of a longer range (the answer's `from` says where they start). Any two instants
 * make a valid range, as the document says, so a long one is cut rather than refused.
 */
export function bucketsOf(range: Range, interval: Interval): { unit: number; aligned: Range; points: number } {
  const unit = INTERVALS[interval];
  const aligned = alignRange(range, unit);
  const points = (aligned.to.getTime() - aligned.from.getTime()) / unit;
  if (points <= MAX_POINTS) return { unit, aligned, points };
  return { unit, aligned: { from: new Date(aligned.to.getTime() - MAX_POINTS * unit), to: aligned.to }, points: MAX_POINTS };
}

export async function timeseries(em: EntityManager, counting: Counting, projectId: string, range: Range, interval: Interval) {
  const { unit, aligned, points } = bucketsOf(range, interval);
  const rows = await em.execute<Array<Record<string, string | number>>>(
    `select (extract(epoch from date_bin(? * interval '1 millisecond', s."hour", timestamptz 'epoch')) * 1000)::float8 as "bucket",
       ${stageSums('s')}
     from email_stats s where s."project_id" = ? and s."hour" >= ? and s."hour" < ? and ${countedRows('s')} group by 1`,
    [unit, projectId, aligned.from, aligned.to, counting.REPUTATION_COUNT_SIMULATED],
  );
  const byBucket = new Map(rows.map((r) => [Number(r.bucket), stageCountsOf(r)]));
  const zero = stageCountsOf({});
  const series = Array.from({ length: points }, (_, i) => {
    const at = aligned.from.getTime() + i * unit;
    return { time: new Date(at).toISOString(), ...(byBucket.get(at) ?? zero) };
  });
  const totals = stageCountsOf(Object.fromEntries(STAGES.map((s) => [s, series.reduce((sum, p) => sum + p[s], 0)])));
  return { interval, ...rangeView(aligned), points: series, totals };
}

export type CampaignMetric = Stage | RateName;
export const CAMPAIGN_METRICS = [...STAGES, ...(Object.keys(RATES) as RateName[])] as CampaignMetric[];

interface CampaignRow extends Record<string, unknown> {
  id: string;
  name: string;
  status: string;
  sent_at: string | null;
  total: string;
}

const metricSql = (metric: CampaignMetric) =>
  (STAGES as readonly string[]).includes(metric) ? `"${metric}"` : rateSql(metric as RateName);

/**
 * Each campaign with email activity in the range (any stage reached in one of its hours), with its counts in
 * that range, ordered by `metric` (then by sends) and a page of them; `total` counts them all.
 */
async function campaignFigures(
  em: EntityManager,
  counting: Counting,
  projectId: string,
  range: Range,
  page: { metric: CampaignMetric | 'recent'; limit: number; offset: number },
) {
  const order = page.metric === 'recent' ? `"sent_at" desc nulls last` : `${metricSql(page.metric)} desc, "sent" desc`;
  const rows = await em.execute<CampaignRow[]>(
    `select c."id", c."name", c."status", c."sent_at", t.*, count(*) over () as "total"
     from (select s."campaign_id", ${stageSums('s')} from email_stats s
           where s."project_id" = ? and s."campaign_id" is not null and s."hour" >= ? and s."hour" < ? and ${countedRows('s')}
           group by s."campaign_id") t
     join campaigns c on c."id" = t."campaign_id" and c."project_id" = ?
     where ${STAGES.map((s) => `t."${s}" > 0`).join(' or ')}
     order by ${order}, c."id" desc limit ? offset ?`,
    [projectId, range.from, range.to, counting.REPUTATION_COUNT_SIMULATED, projectId, page.limit, page.offset],
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    campaigns: rows.map((r) => {
      const counts = stageCountsOf(r);
      return {
        id: r.id,
        name: r.name,
        status: r.status,
        sentAt: r.sent_at ? new Date(r.sent_at).toISOString() : null,
        ...counts,
        ...ratesOf(counts),
      };
    }),
  };
}

export async function topCampaigns(
  em: EntityManager,
  counting: Counting,
  projectId: string,
  range: Range,
  metric: CampaignMetric,
  limit: number,
) {
  const aligned = alignRange(range, HOUR_MS);
  const { campaigns } = await campaignFigures(em, counting, projectId, aligned, { metric, limit, offset: 0 });
  return { metric, ...rangeView(aligned), campaigns };
}

/** Every campaign's figures in the range, most recently sent first, a page at a time, with the sum of all. */
export async function campaignStats(
  em: EntityManager,
  counting: Counting,
  projectId: string,
  range: Range,
  page: number,
  pageSize: number,
) {
  const aligned = alignRange(range, HOUR_MS);
  const [figures, [sums]] = await Promise.all([
    campaignFigures(em, counting, projectId, aligned, { metric: 'recent', limit: pageSize, offset: offsetOf({ page, pageSize }) }),
    em.execute<Array<Record<string, unknown>>>(
      `select ${stageSums('s')} from email_stats s where s."project_id" = ? and s."source_type" = 'CAMPAIGN' and s."campaign_id" is not null
         and s."hour" >= ? and s."hour" < ? and ${countedRows('s')}`,
      [projectId, aligned.from, aligned.to, counting.REPUTATION_COUNT_SIMULATED],
    ),
  ]);
  const totals: StageCounts = stageCountsOf(sums ?? {});
  return {
    ...rangeView(aligned),
    ...pageOf(figures.campaigns, figures.total, { page, pageSize }),
    totals: { ...totals, ...ratesOf(totals) },
  };
}

// The patterns are the service's own constants, valid as PostgreSQL regular expressions too.
const CUSTOM_NAMES = RESERVED_EVENT_PATTERNS.map((r) => `"name" !~ '${r.source.replace(/'/g, "''")}'`).join(' and ');

/** The most frequent event names the project tracked itself (service events are left out). */
export async function topEvents(em: EntityManager, projectId: string, range: Range, limit: number) {
  const aligned = alignRange(range, HOUR_MS);
  const rows = await em.execute<Array<{ name: string; count: number }>>(
    `select "name", sum("count")::float8 as "count" from event_stats
     where "project_id" = ? and "hour" >= ? and "hour" < ? and ${CUSTOM_NAMES}
     group by "name" having sum("count") > 0 order by 2 desc, 1 limit ?`,
    [projectId, aligned.from, aligned.to, limit],
  );
  return { ...rangeView(aligned), events: rows.map((r) => ({ name: r.name, count: Number(r.count) })) };
}
