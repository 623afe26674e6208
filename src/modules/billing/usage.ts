import type { EntityManager } from '@mikro-orm/postgresql';
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

const EMAILS_USED = `select "source_type" as "category", sum("billable")::float8 as "used" from email_stats
  where "project_id" = ? and "hour" >= ? and "hour" < ?`;

const INBOUND_USED = `select 'INBOUND' as "category", sum("count")::float8 as "used" from event_stats
  where "project_id" = ? and "name" = 'email.received' and "hour" >= ? and "hour" < ?`;

/**
 * Emails per category recorded in the period, from the email records through their rollup (email_stats
 * `billable`: every email but those that FAILED, dated when it was recorded). Inbound mail has no email
 * record; it counts as its `email.received` events.
 */
export async function usageIn(em: EntityManager, projectId: string, period: Period): Promise<Usage> {
  const rows = await em.execute<Array<{ category: string; used: number }>>(`${EMAILS_USED} group by 1 union all ${INBOUND_USED}`, [
    projectId,
    period.start,
    period.end,
    projectId,
    period.start,
    period.end,
  ]);
  const used = new Map(rows.map((r) => [r.category, Number(r.used ?? 0)]));
  return Object.fromEntries(BILLING_CATEGORIES.map((c) => [c, used.get(c) ?? 0])) as Usage;
}

/** One category's usage in the period, as usageIn counts it: what a cap check needs. */
export async function usageOf(em: EntityManager, projectId: string, period: Period, category: BillingCategory): Promise<number> {
  const [row] = await em.execute<Array<{ used: number | null }>>(
    category === 'INBOUND' ? INBOUND_USED : `${EMAILS_USED} and "source_type" = ? group by 1`,
    [projectId, period.start, period.end, ...(category === 'INBOUND' ? [] : [category])],
  );
  return Number(row?.used ?? 0);
}
