import type { EntityManager } from '@mikro-orm/postgresql';
import { notifyAfterCommit } from '../../db/commit-notifier';
import { conflict, notFound } from '../../http/errors';
import type { Orm } from '../../db/orm';
import { DELIVERY_CHANNEL } from './delivery/channel';
import { QUEUE_PRIORITY } from './delivery/queue';
import type { EmailStatus } from './entities';

/**
 * The database half of scheduled sends (docs/sending.md "Scheduled sends"): a SCHEDULED email has no queue
 * row; the timer of its project and second (workflows/scheduled-emails) releases it into the queue when
 * due, by Temporal's clock. Every change locks the email's row, so the release and a reschedule or cancel
 * happen one after the other.
 */

const ENQUEUE = `
insert into email_queue ("email_id", "project_id", "source_type", "priority", "campaign_id", "workflow_execution_id", "due_at")
select "id", "project_id", "source_type", ${QUEUE_PRIORITY('"source_type"')}, "campaign_id", "workflow_execution_id", now()
from emails where "id" = ?`;

/** Emails released per transaction: a second may hold thousands of a project's emails. */
const RELEASE_CHUNK = 1_000;

// The rows are locked (waiting for a reschedule or cancel under way), then PENDING and in the queue, due now.
const RELEASE_DUE = `
with due as (
  select "id" from emails where "project_id" = ? and "status" = 'SCHEDULED' and "scheduled_at" <= ?
  order by "id" limit ${RELEASE_CHUNK} for update),
released as (
  update emails e set "status" = 'PENDING', "updated_at" = now() from due where e."id" = due."id" and e."status" = 'SCHEDULED'
  returning e."id", e."project_id", e."source_type", e."campaign_id", e."workflow_execution_id"),
queued as (
  insert into email_queue ("email_id", "project_id", "source_type", "priority", "campaign_id", "workflow_execution_id", "due_at")
  select "id", "project_id", "source_type", ${QUEUE_PRIORITY('"source_type"')}, "campaign_id", "workflow_execution_id", now() from released)
select (select count(*) from due)::int as "seen", (select count(*) from released)::int as "released"`;

const lock = async (tx: EntityManager, emailId: string, projectId: string) =>
  (
    await tx.execute<Array<{ status: EmailStatus }>>(`select "status" from emails where "id" = ? and "project_id" = ? for update`, [
      emailId,
      projectId,
    ])
  )[0];

/** SCHEDULED → PENDING, into the delivery queue; the pumps are woken at commit. */
async function release(tx: EntityManager, emailId: string): Promise<void> {
  await tx.execute(`update emails set "status" = 'PENDING', "updated_at" = now() where "id" = ?`, [emailId]);
  await tx.execute(ENQUEUE, [emailId]);
  notifyAfterCommit(tx, DELIVERY_CHANNEL);
}

/**
 * The timer's activity: every email of the project still SCHEDULED and due by `dueAt` (the timer's second)
 * goes to the delivery queue, a chunk per transaction, the pumps woken at each commit. Returns how many; a
 * repeat finds them released.
 */
export async function releaseDue(orm: Orm, projectId: string, dueAt: Date): Promise<number> {
  let released = 0;
  for (;;) {
    const [row] = await orm.em.fork().transactional(async (tx) => {
      const rows = await tx.execute<Array<{ seen: number; released: number }>>(RELEASE_DUE, [projectId, dueAt]);
      if (rows[0]!.released > 0) notifyAfterCommit(tx, DELIVERY_CHANNEL);
      return rows;
    });
    released += row!.released;
    if (row!.seen < RELEASE_CHUNK) return released;
  }
}

/**
 * Locks a SCHEDULED email of the project for a reschedule or a cancel, in the caller's transaction: 404 for
 * an unknown email or another project's, 409 for one that is no longer SCHEDULED.
 */
export async function lockScheduled(tx: EntityManager, projectId: string, emailId: string): Promise<void> {
  const row = await lock(tx, emailId, projectId);
  if (!row) throw notFound('Email');
  if (row.status !== 'SCHEDULED') {
    throw conflict(`The email is ${row.status}; only a SCHEDULED email can be rescheduled or cancelled`, { status: row.status });
  }
}

/** A locked SCHEDULED email gets a new due time; null releases it now. */
export async function setScheduledAt(tx: EntityManager, emailId: string, at: Date | null): Promise<void> {
  await tx.execute(`update emails set "scheduled_at" = ?, "updated_at" = now() where "id" = ?`, [at ?? new Date(), emailId]);
  if (at === null) await release(tx, emailId);
}

/** A locked SCHEDULED email is CANCELLED: it is never sent. */
export async function cancelScheduled(tx: EntityManager, emailId: string): Promise<void> {
  await tx.execute(`update emails set "status" = 'CANCELLED', "updated_at" = now() where "id" = ?`, [emailId]);
}
