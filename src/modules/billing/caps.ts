import type { EntityManager } from '@mikro-orm/postgresql';
import { ApiError } from '../../http/errors';
import type { Project } from '../projects/entities';
import type { BillingCategory } from './schemas';
import { limitsOf } from './service';
import { isSimulatorAddress } from '../../mail/simulator-domain';
import { currentPeriod, usageOf, type Counting } from './usage';

const capExceeded = (details: { category: BillingCategory; limit: number; used: number; requested: number; resetsAt: string }) =>
  new ApiError(
    403,
    'BILLING_LIMIT_EXCEEDED',
    `This needs ${details.requested} ${details.category} email(s), but the monthly cap of ${details.limit} leaves ${Math.max(0, details.limit - details.used)}`,
    {
      details: { ...details, remaining: Math.max(0, details.limit - details.used) },
      suggestion: 'An OWNER or ADMIN can raise the cap (PUT /users/@me/projects/{id}/billing-limits); otherwise wait until resetsAt.',
    },
  );

/** Where a capped category stands once a send is recorded; the /v1/send rate headers show it (send-rate.ts). */
export interface CapStanding {
  limit: number;
  remaining: number;
  resetsAt: Date;
}

/** Where `category` stands with `count` more emails counted; 403 BILLING_LIMIT_EXCEEDED when they pass its cap. */
async function standingWith(
  em: EntityManager,
  counting: Counting,
  project: Project,
  category: BillingCategory,
  limit: number,
  count: number,
): Promise<CapStanding> {
  const period = currentPeriod();
  const used = await usageOf(em, counting, project.id, period, category);
  if (used + count > limit) throw capExceeded({ category, limit, used, requested: count, resetsAt: period.end.toISOString() });
  return { limit, remaining: limit - used - count, resetsAt: period.end };
}

/**
 * Refuses (403 BILLING_LIMIT_EXCEEDED) to record emails to `recipients` of `category` when they would take the
 * project past its monthly cap (docs/billing.md); mail to the simulator domain is not billed unless the
 * deployment counts it (docs/security.md). The cap is the project's as loaded for this request (by
 * its API key), which spares a query per send. Call it in the transaction that records the emails, just
 * before it does: it holds a per-project-and-category lock until that transaction ends, so concurrent
 * senders are counted one after the other and together never pass the cap. Returns where the category stands
 * with these emails counted, null when it has no cap.
 */
export async function assertWithinBillingCap(
  em: EntityManager,
  counting: Counting,
  project: Project,
  category: BillingCategory,
  recipients: string[],
): Promise<CapStanding | null> {
  if (!em.isInTransaction()) throw new Error('assertWithinBillingCap must run in the transaction that records the emails');
  const limit = limitsOf(project)[category];
  if (limit === null) return null;
  await em.execute(`select pg_advisory_xact_lock(hashtextextended(?, 0))`, [`billing-cap:${project.id}:${category}`]);
  const count = counting.REPUTATION_COUNT_SIMULATED ? recipients.length : recipients.filter((r) => !isSimulatorAddress(r)).length;
  return standingWith(em, counting, project, category, limit, count);
}

/**
 * Refuses (403 BILLING_LIMIT_EXCEEDED) when the cap of `category` leaves no room for one more email: an early
 * answer ahead of the check that records (the SMTP relay's MAIL FROM, before the message is read). It takes
 * no lock and needs no transaction, as it records nothing; assertWithinBillingCap still decides.
 */
export async function assertBillingCapNotReached(
  em: EntityManager,
  counting: Counting,
  project: Project,
  category: BillingCategory,
): Promise<void> {
  const limit = limitsOf(project)[category];
  if (limit !== null) await standingWith(em, counting, project, category, limit, 1);
}
