import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../../http/context';
import type { Project } from '../projects/entities';
import { limitsOf } from './service';
import { currentPeriod, usageIn } from './usage';

/**
 * api.md "Limits" rule 5, the send bucket bounded by the billing cap: on /v1/send, RateLimit-Remaining never
 * exceeds the TRANSACTIONAL emails the monthly cap still allows. When the cap is the tighter limit (or the
 * only one), the three headers describe it: its size, what is left, and the seconds until the month ends.
 */
export async function boundSendRateByCap(ctx: AppContext, em: EntityManager, project: Project): Promise<void> {
  const limit = limitsOf(project).TRANSACTIONAL;
  if (limit === null) return;
  const period = currentPeriod();
  const remaining = Math.max(0, limit - (await usageIn(em, project.id, period)).TRANSACTIONAL);
  const shown = ctx.response.get('RateLimit-Remaining');
  if (shown !== '' && Number(shown) <= remaining) return;
  ctx.set('RateLimit-Limit', String(limit));
  ctx.set('RateLimit-Remaining', String(remaining));
  ctx.set('RateLimit-Reset', String(Math.max(1, Math.ceil((period.end.getTime() - Date.now()) / 1000))));
}
