import type { EntityManager } from '@mikro-orm/postgresql';
import { notifyAfterCommit } from '../../db/commit-notifier';
import { countedRows } from '../emails/counted';
import { DELIVERY_CHANNEL } from '../emails/delivery/channel';
import type { ReputationSettings } from './figures';

/** Who suspended or reinstated a project, as the audit list and the security page say it. */
export type Actor = 'automatic' | 'operator';

/**
 * Whether the project may send: null, or its suspension with the reason. The one question every path that
 * takes mail outside an API key asks (the SMTP relay answers 554 5.7.0 when it is not null); the API refuses
 * a suspended project's keys in src/app/authenticate.ts, and the delivery pump holds its queued emails.
 */
export async function suspensionOf(em: EntityManager, projectId: string): Promise<{ reason: string } | null> {
  const [row] = await em.execute<{ disabled: boolean; disabled_reason: string | null }[]>(
    `select "disabled", "disabled_reason" from projects where "id" = ?`,
    [projectId],
  );
  return row ? suspensionIn({ disabled: row.disabled, disabledReason: row.disabled_reason }) : null;
}

/** suspensionOf for a project row the caller has just read (the relay's, loaded for its cap). */
export const suspensionIn = (project: { disabled: boolean; disabledReason?: string | null }): { reason: string } | null =>
  project.disabled ? { reason: project.disabledReason ?? 'The project is suspended' } : null;

/**
 * The trigger on projects.disabled (migration 0040) reads who acts, and a reinstatement's reason, from these
 * transaction-local settings when it writes the suspension history, the audit list and the owners' notice.
 */
async function actAs(tx: EntityManager, by: Actor, reason: string | null): Promise<void> {
  await tx.execute(`select set_config('postwire.actor', ?, true), set_config('postwire.reason', ?, true)`, [by, reason ?? '']);
}

const existing = async (tx: EntityManager, projectId: string) =>
  (await tx.execute<{ id: string }[]>(`select "id" from projects where "id" = ?`, [projectId])).length > 0;

/**
 * Suspends the project with `reason` (its disabledReason). From the commit on, its API keys are refused and
 * no email of it starts an SMTP transaction: the delivery pump's gate locks the project row while it writes a
 * MAIL FROM (docs/delivery.md "Holding"), so this update waits for any such write under way, and every later
 * one sees the project suspended. Nothing is deleted or changes status.
 */
export async function suspendProject(
  em: EntityManager,
  projectId: string,
  reason: string,
  by: Actor,
): Promise<'suspended' | 'already' | 'missing'> {
  return em.transactional(async (tx) => {
    await actAs(tx, by, reason);
    const changed = await tx.execute<{ id: string }[]>(
      `update projects set "disabled" = true, "disabled_reason" = ?, "updated_at" = now() where "id" = ? and not "disabled" returning "id"`,
      [reason, projectId],
    );
    if (changed.length > 0) return 'suspended';
    return (await existing(tx, projectId)) ? 'already' : 'missing';
  });
}

// Sent emails count towards REPUTATION_MIN_SENT again from the reinstatement on: the hour it happens in, less
// what that hour had already sent (docs/security.md "After a reinstatement").
const REINSTATE = `
update projects p set "disabled" = false, "disabled_reason" = null, "updated_at" = now(),
  "reputation_grace_hour" = date_trunc('hour', now(), 'UTC'),
  "reputation_grace_base" = (select coalesce(sum(s."sent"), 0) from email_stats s
    where s."project_id" = p."id" and s."hour" = date_trunc('hour', now(), 'UTC') and ${countedRows('s')})
where p."id" = ? and p."disabled"
returning p."id"`;

// The trigger on projects.disabled (migration 0040) made the held emails due again (delivery/claim.ts holds
// them at 'infinity'), whoever reinstated; the automation executions that wait for them are woken by the caller
// once this commits.
const WAITING_EXECUTIONS = `
select distinct x."temporal_workflow_id" as "workflow_id" from email_queue q
join automation_executions x on x."id" = q."workflow_execution_id"
where q."project_id" = ? and q."workflow_execution_id" is not null`;

export interface Reinstatement {
  outcome: 'reinstated' | 'active' | 'missing';
  /** Workflow IDs of the automation executions whose emails waited: to wake once this commits. */
  waiting: string[];
}

/** Reinstates a suspended project: its keys work again and its held emails go, each once. */
export async function reinstateProject(
  em: EntityManager,
  settings: Pick<ReputationSettings, 'REPUTATION_COUNT_SIMULATED'>,
  projectId: string,
  reason: string | null,
): Promise<Reinstatement> {
  return em.transactional(async (tx) => {
    await actAs(tx, 'operator', reason);
    const changed = await tx.execute<{ id: string }[]>(REINSTATE, [settings.REPUTATION_COUNT_SIMULATED, projectId]);
    if (changed.length === 0) return { outcome: (await existing(tx, projectId)) ? 'active' : 'missing', waiting: [] };
    notifyAfterCommit(tx, DELIVERY_CHANNEL);
    const waiting = await tx.execute<{ workflow_id: string }[]>(WAITING_EXECUTIONS, [projectId]);
    return { outcome: 'reinstated', waiting: waiting.map((w) => w.workflow_id) };
  });
}

/** A suspended project's emails held in the queue (the partial index of migration 0040 counts them). */
export async function heldEmailCount(em: EntityManager, projectId: string): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(
    `select count(*)::int as "n" from email_queue where "project_id" = ? and "due_at" = 'infinity'`,
    [projectId],
  );
  return row?.n ?? 0;
}
