import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiError } from '../../http/errors';
import type { Project } from '../projects/entities';
import { BILLING_CATEGORIES, type BillingCategory, type BillingLimits, type ConsumptionResponse } from './schemas';

export const billingDisabled = () =>
  new ApiError(404, 'BILLING_DISABLED', 'Billing is not enabled on this deployment', {
    suggestion: 'GET /config tells whether billing is enabled; monthly caps work without it (billing-limits).',
  });

export function limitsOf(project: Project): BillingLimits {
  const stored = project.billingLimits;
  return Object.fromEntries(BILLING_CATEGORIES.map((c) => [c, stored[c] ?? null])) as BillingLimits;
}

export async function updateLimits(em: EntityManager, project: Project, changes: Partial<BillingLimits>): Promise<BillingLimits> {
  project.billingLimits = { ...limitsOf(project), ...changes };
  await em.flush();
  return limitsOf(project);
}

/** The current calendar month in UTC: [start, end). */
export function currentPeriod(now = new Date()): { start: Date; end: Date } {
  return {
    start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}

/**
 * Emails of this calendar month per category, counted from the service events recorded when an email is sent:
 * `email.sent` by its `data.sourceType`, and `email.received` as INBOUND.
 */
export async function consumption(em: EntityManager, project: Project): Promise<ConsumptionResponse> {
  const { start, end } = currentPeriod();
  const rows = await em.execute<Array<{ category: string; used: number }>>(
    `select case when name = 'email.received' then 'INBOUND' else data->>'sourceType' end as category, count(*)::int as used
     from events
     where project_id = ? and created_at >= ? and created_at < ? and name in ('email.sent', 'email.received')
     group by 1`,
    [project.id, start, end],
  );
  const used = new Map(rows.map((r) => [r.category, r.used]));
  const limits = limitsOf(project);
  const entry = (c: BillingCategory) => {
    const count = used.get(c) ?? 0;
    const limit = limits[c];
    return { used: count, limit, remaining: limit === null ? null : Math.max(0, limit - count) };
  };
  const categories = {
    TRANSACTIONAL: entry('TRANSACTIONAL'),
    CAMPAIGN: entry('CAMPAIGN'),
    WORKFLOW: entry('WORKFLOW'),
    INBOUND: entry('INBOUND'),
  };
  return {
    period: { start: start.toISOString(), end: end.toISOString() },
    total: Object.values(categories).reduce((sum, c) => sum + c.used, 0),
    categories,
  };
}
