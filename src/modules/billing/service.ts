import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiError } from '../../http/errors';
import type { Project } from '../projects/entities';
import { BILLING_CATEGORIES, type BillingCategory, type BillingLimits, type ConsumptionResponse } from './schemas';
import { currentPeriod, usageIn, type Counting } from './usage';

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

/** This calendar month's emails per category (usage.ts), against the caps. */
export async function consumption(em: EntityManager, counting: Counting, project: Project): Promise<ConsumptionResponse> {
  const period = currentPeriod();
  const used = await usageIn(em, counting, project.id, period);
  const limits = limitsOf(project);
  const entry = (c: BillingCategory) => {
    const limit = limits[c];
    return { used: used[c], limit, remaining: limit === null ? null : Math.max(0, limit - used[c]) };
  };
  const categories = {
    TRANSACTIONAL: entry('TRANSACTIONAL'),
    CAMPAIGN: entry('CAMPAIGN'),
    WORKFLOW: entry('WORKFLOW'),
    INBOUND: entry('INBOUND'),
  };
  return {
    period: { start: period.start.toISOString(), end: period.end.toISOString() },
    total: Object.values(categories).reduce((sum, c) => sum + c.used, 0),
    categories,
  };
}
