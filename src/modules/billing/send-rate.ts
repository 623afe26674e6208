import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../http/context';
import type { Project } from '../projects/entities';
import type { CapStanding } from './caps';
import { limitsOf } from './service';
import { currentPeriod, usageOf, type Counting } from './usage';

/**
 * docs/billing.md "The send bucket and the cap": the send bucket bounded by the billing cap: on /v1/send, RateLimit-Remaining never
 * exceeds the TRANSACTIONAL emails the monthly cap still allows. When the cap is the tighter limit (or the
 * only one), the three headers describe it: its size, what is left, and the seconds until the month ends.
 */
export function boundSendRateByCap(ctx: AppContext, standing: CapStanding | null): void {
  if (!standing) return;
  const remaining = Math.max(0, standing.remaining);
  const shown = ctx.response.get('RateLimit-Remaining');
  if (shown !== '' && Number(shown) <= remaining) return;
  ctx.set('RateLimit-Limit', String(standing.limit));
  ctx.set('RateLimit-Remaining', String(remaining));
  ctx.set('RateLimit-Reset', String(Math.max(1, Math.ceil((standing.resetsAt.getTime() - Date.now()) / 1000))));
}

/**
 * Where TRANSACTIONAL stands now, for a send that ended before its cap was checked (a refused request); null
 * when the database cannot say, so that the refusal's own error is the one answered.
 */
export async function transactionalStanding(em: EntityManager, counting: Counting, project: Project): Promise<CapStanding | null> {
  const limit = limitsOf(project).TRANSACTIONAL;
  if (limit === null) return null;
  const period = currentPeriod();
  const used = await usageOf(em, counting, project.id, period, 'TRANSACTIONAL').catch(() => null);
  return used === null ? null : { limit, remaining: limit - used, resetsAt: period.end };
}
