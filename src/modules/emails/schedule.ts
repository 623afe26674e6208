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

/** Emails released per transaction: a second may hold thousands of a project's emails. */
const RELEASE_CHUNK = 1_000;

/**
 * How long past its time a SCHEDULED email is left to its timer before the sweep releases it. A timer misses an
 * email whose scheduling request committed after the timer had fired (a request slower than sendAt's 5 s
 * margin), and none fires while no worker runs.
 */
export const OVERDUE_MS = 60_000;

// The rows are locked, then PENDING and in the queue, due now. `due` picks the emails and locks them.
const releasing = (due: string) => `
with due as (${due}),
released as (
  update emails e set "status" = 'PENDING', "release_at" = null, "updated_at" = now() from due where e."id" = due."id" and e."status" = 'SCHEDULED'
  returning e."id", e."project_id", e."source_type", e."campaign_id", e."workflow_execution_id"),
queued as (
  insert into email_queue ("email_id", "project_id", "source_type", "priority", "campaign_id", "workflow_execution_id", "due_at")
  select "id", "project_id", "source_type", ${QUEUE_PRIORITY('"source_type"')}, "campaign_id", "workflow_execution_id", now() from released)
select (select count(*) from due)::int as "seen", (select count(*) from released)::int as "released"`;

// A timer's: waits for a reschedule or cancel under way, which may move the email out of its second.
const RELEASE_DUE = releasing(`
  select "id" from emails where "project_id" = ? and "release_at" <= ?
  order by "id" limit ${RELEASE_CHUNK} for update`);

// The sweep's: every project, emails a minute overdue; one being rescheduled or cancelled is left to that.
const RELEASE_OVERDUE = releasing(`
  select "id" from emails where "release_at" <= now() - make_interval(secs => ${OVERDUE_MS / 1000})
  order by "release_at" limit ${RELEASE_CHUNK} for update skip locked`);

/** Runs a release statement a chunk per transaction, the pumps woken at each commit, until a chunk is not full. */
async function releaseChunks(em: EntityManager, statement: string, params: unknown[]): Promise<number> {
  let released = 0;
  for (;;) {
    const [row] = await em.fork().transactional(async (tx) => {
      const rows = await tx.execute<Array<{ seen: number; released: number }>>(statement, params);
      if (rows[0]!.released > 0) notifyAfterCommit(tx, DELIVERY_CHANNEL);
      return rows;
    });
    released += row!.released;
    if (row!.seen < RELEASE_CHUNK) return released;
  }
}

const lock = async (tx: EntityManager, emailId: string, projectId: string) =>
  (
    await tx.execute<Array<{ status: EmailStatus }>>(`select "status" from emails where "id" = ? and "project_id" = ? for update`, [
      emailId,
      projectId,
    ])
  )[0];

// A reschedule to now: the one email, already locked by lockScheduled.
const RELEASE_ONE = releasing(`select ?::uuid as "id"`);

/** SCHEDULED → PENDING, into the delivery queue; the pumps are woken at commit. */
async function release(tx: EntityManager, emailId: string): Promise<void> {
  await tx.execute(RELEASE_ONE, [emailId]);
  notifyAfterCommit(tx, DELIVERY_CHANNEL);
}

/**
 * The timer's activity: every email of the project still SCHEDULED and due by `dueAt` (the timer's second)
 * goes to the delivery queue. Returns how many; a repeat finds them released.
 */
export const releaseDue = (orm: Orm, projectId: string, dueAt: Date): Promise<number> =>
  releaseChunks(orm.em, RELEASE_DUE, [projectId, dueAt]);

/**
 * The safety net of the timers, run by every worker's housekeeping: emails of any project still SCHEDULED a
 * minute (OVERDUE_MS) after their time go to the delivery queue. Returns how many.
 */
export const releaseOverdue = (em: EntityManager): Promise<number> => releaseChunks(em, RELEASE_OVERDUE, []);

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
  const due = at ?? new Date();
  await tx.execute(`update emails set "scheduled_at" = ?, "release_at" = ?, "updated_at" = now() where "id" = ?`, [due, due, emailId]);
  if (at === null) await release(tx, emailId);
}

/** A locked SCHEDULED email is CANCELLED: it is never sent. */
export async function cancelScheduled(tx: EntityManager, emailId: string): Promise<void> {
  await tx.execute(`update emails set "status" = 'CANCELLED', "release_at" = null, "updated_at" = now() where "id" = ?`, [emailId]);
}
