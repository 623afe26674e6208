import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { countedRows } from '../emails/counted';
import { BILLING_CATEGORIES, type BillingCategory } from './schemas';

export interface Period {
  start: Date;
  end: Date;
}

/** The current calendar month in UTC: [start, end). */
export function currentPeriod(now = new Date()): Period {
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

export type Usage = Record<BillingCategory, number>;

const EMAILS_USED = `select s."source_type" as "category", sum(s."billable")::float8 as "used" from email_stats s
  where s."project_id" = ? and s."hour" >= ? and s."hour" < ? and ${countedRows('s')}`;

const INBOUND_USED = `select 'INBOUND' as "category", sum("count")::float8 as "used" from event_stats
  where "project_id" = ? and "name" = 'email.received' and "hour" >= ? and "hour" < ?`;

/** Whether simulated mail counts (docs/security.md "Simulated mail"): not billed, unless REPUTATION_COUNT_SIMULATED. */
export type Counting = Pick<Config, 'REPUTATION_COUNT_SIMULATED'>;

/**
 * Emails per category recorded in the period, from the email records through their rollup (email_stats
 * `billable`: every email but those that FAILED, dated when it was recorded), simulated mail left out.
 * Inbound mail has no email record; it counts as its `email.received` events.
 */
export async function usageIn(em: EntityManager, counting: Counting, projectId: string, period: Period): Promise<Usage> {
  const rows = await em.execute<Array<{ category: string; used: number }>>(`${EMAILS_USED} group by 1 union all ${INBOUND_USED}`, [
    projectId,
    period.start,
    period.end,
    counting.REPUTATION_COUNT_SIMULATED,
    projectId,
    period.start,
    period.end,
  ]);
  const used = new Map(rows.map((r) => [r.category, Number(r.used ?? 0)]));
  return Object.fromEntries(BILLING_CATEGORIES.map((c) => [c, used.get(c) ?? 0])) as Usage;
}

/** One category's usage in the period, as usageIn counts it: what a cap check needs. */
export async function usageOf(
  em: EntityManager,
  counting: Counting,
  projectId: string,
  period: Period,
  category: BillingCategory,
): Promise<number> {
  const [row] = await em.execute<Array<{ used: number | null }>>(
    category === 'INBOUND' ? INBOUND_USED : `${EMAILS_USED} and s."source_type" = ? group by 1`,
    [projectId, period.start, period.end, ...(category === 'INBOUND' ? [] : [counting.REPUTATION_COUNT_SIMULATED, category])],
  );
  return Number(row?.used ?? 0);
}
