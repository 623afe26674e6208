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

/**
 * Emails per category recorded in the period, from the email records through their rollup (email_stats
 * `billable`: every email but those that FAILED, dated when it was recorded). Inbound mail has no email
 * record; it counts as its `email.received` events.
 */
export async function usageIn(em: EntityManager, projectId: string, period: Period): Promise<Usage> {
  const rows = await em.execute<Array<{ category: string; used: number }>>(
    `select "source_type" as "category", sum("billable")::float8 as "used" from email_stats
     where "project_id" = ? and "hour" >= ? and "hour" < ? group by 1
     union all
     select 'INBOUND', sum("count")::float8 from event_stats
     where "project_id" = ? and "name" = 'email.received' and "hour" >= ? and "hour" < ?`,
    [projectId, period.start, period.end, projectId, period.start, period.end],
  );
  const used = new Map(rows.map((r) => [r.category, Number(r.used ?? 0)]));
  return Object.fromEntries(BILLING_CATEGORIES.map((c) => [c, used.get(c) ?? 0])) as Usage;
}
