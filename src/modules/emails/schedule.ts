import type { EntityManager } from '@mikro-orm/postgresql';
import { notifyAfterCommit } from '../../db/commit-notifier';
import { conflict, notFound } from '../../http/errors';
import type { ReleaseResult } from '../../../workflows/scheduled-email/ids';
import { DELIVERY_CHANNEL } from './delivery/channel';
import { QUEUE_PRIORITY } from './delivery/queue';
import type { EmailStatus } from './entities';

/**
 * The database half of scheduled sends (docs/sending.md "Scheduled sends"): a SCHEDULED email has no queue
 * row; its Temporal timer (workflows/scheduled-email) releases it into the queue when due, by Temporal's
 * clock. Every change locks the email's row, so the release and a reschedule or cancel happen one after the
 * other.
 */

const ENQUEUE = `
insert into email_queue ("email_id", "project_id", "source_type", "priority", "campaign_id", "workflow_execution_id", "due_at")
select "id", "project_id", "source_type", ${QUEUE_PRIORITY('"source_type"')}, "campaign_id", "workflow_execution_id", now()
from emails where "id" = ?`;

interface Locked {
  status: EmailStatus;
  scheduled_at: string | null;
}

const lock = async (tx: EntityManager, emailId: string, projectId?: string): Promise<Locked | undefined> =>
  (
    await tx.execute<Locked[]>(
      `select "status", "scheduled_at" from emails where "id" = ? and (?::uuid is null or "project_id" = ?) for update`,
      [emailId, projectId ?? null, projectId ?? null],
    )
  )[0];

/** SCHEDULED → PENDING, into the delivery queue; the pumps are woken at commit. */
async function release(tx: EntityManager, emailId: string): Promise<void> {
  await tx.execute(`update emails set "status" = 'PENDING', "updated_at" = now() where "id" = ?`, [emailId]);
  await tx.execute(ENQUEUE, [emailId]);
  notifyAfterCommit(tx, DELIVERY_CHANNEL);
}

/**
 * The timer's activity, run when the timer set for `dueAt` fired: releases the email unless it was
 * rescheduled past `dueAt` since (then it says when it is due); a repeat finds it settled.
 */
export async function releaseScheduled(em: EntityManager, emailId: string, dueAt: string): Promise<ReleaseResult> {
  return em.transactional(async (tx) => {
    const row = await lock(tx, emailId);
    if (!row || row.status !== 'SCHEDULED') return { kind: 'settled' as const };
    const due = new Date(row.scheduled_at!);
    if (due.getTime() > Date.parse(dueAt)) return { kind: 'later' as const, sendAt: due.toISOString() };
    await release(tx, emailId);
    return { kind: 'released' as const };
  });
}

/**
 * Locks a SCHEDULED email of the project for a reschedule or a cancel, in the caller's transaction: 404 for
 * an unknown email or another project's, 409 for one that is no longer SCHEDULED. Returns its due time.
 */
export async function lockScheduled(tx: EntityManager, projectId: string, emailId: string): Promise<Date> {
  const row = await lock(tx, emailId, projectId);
  if (!row) throw notFound('Email');
  if (row.status !== 'SCHEDULED') {
    throw conflict(`The email is ${row.status}; only a SCHEDULED email can be rescheduled or cancelled`, { status: row.status });
  }
  return new Date(row.scheduled_at!);
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
