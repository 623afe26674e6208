import type { Deps } from '../deps';
import { compactRollups, FOLD_AFTER_MS } from '../modules/analytics/compact-rollups';
import { pruneExpiredKeys } from '../modules/idempotency/store';
import { pruneWebhookDeliveries } from '../modules/webhooks/retention';

/** Periodic upkeep of the database; every worker runs it, and each task is safe to run in several at once. */
export function startHousekeeping(deps: Pick<Deps, 'orm' | 'logger'>): () => void {
  const every = (ms: number, what: string, task: () => Promise<unknown>) =>
    setInterval(() => void task().catch((err: unknown) => deps.logger.warn({ err }, `${what} failed`)), ms);
  const timers = [
    every(60 * 60_000, 'pruning idempotency keys', () => pruneExpiredKeys(deps.orm.em.fork())),
    every(60 * 60_000, 'pruning webhook deliveries', () => pruneWebhookDeliveries(deps.orm.em.fork())),
    every(10 * 60_000, 'folding rollup slots', () => compactRollups(deps.orm.em.fork(), new Date(Date.now() - FOLD_AFTER_MS))),
  ];
  return () => timers.forEach((t) => clearInterval(t));
}
