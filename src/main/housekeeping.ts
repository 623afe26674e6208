import type { Deps } from '../deps';
import { compactRollups, FOLD_AFTER_MS } from '../modules/analytics/compact-rollups';
import { pruneExpiredKeys } from '../modules/idempotency/store';
import { pruneWebhookDeliveries } from '../modules/webhooks/retention';
import { sweepReputation } from '../modules/reputation/guard';
import { releaseOverdue } from '../modules/emails/schedule';

/** docs/security.md: every project is judged this often, besides at each bounce and complaint. */
export const REPUTATION_SWEEP_MS = 5 * 60_000;

/**
 * Periodic upkeep of the database; every worker runs it, and each task is safe to run in several at once. The
 * reputation sweep lives here rather than in a Temporal schedule: it must hold a project back whether or not
 * Temporal is reachable, as the delivery pump sends without it, and it is one statement over the rollup.
 */
export function startHousekeeping(deps: Pick<Deps, 'orm' | 'logger' | 'config' | 'mailer'>): () => void {
  const every = (ms: number, what: string, task: () => Promise<unknown>) =>
    setInterval(() => void task().catch((err: unknown) => deps.logger.warn({ err }, `${what} failed`)), ms);
  const timers = [
    every(60 * 60_000, 'pruning idempotency keys', () => pruneExpiredKeys(deps.orm.em.fork())),
    every(60 * 60_000, 'pruning webhook deliveries', () => pruneWebhookDeliveries(deps.orm.em.fork())),
    every(10 * 60_000, 'folding rollup slots', () => compactRollups(deps.orm.em.fork(), new Date(Date.now() - FOLD_AFTER_MS))),
    every(REPUTATION_SWEEP_MS, 'checking reputations', () => sweepReputation(deps)),
    // The timers' safety net (docs/sending.md "Scheduled sends"): like the pump, it needs no Temporal.
    every(30_000, 'releasing overdue scheduled emails', () => releaseOverdue(deps.orm.em.fork())),
  ];
  return () => timers.forEach((t) => clearInterval(t));
}
