import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../logger';
import { INSERT_EVENTS, eventsRecorded } from '../../outbox/record';
import { notifyDrained } from '../campaign-queue';
import type { SuppressionReason } from '../../suppressions/rules';
import { emailEventColumns, emailEventDataSql } from '../email-events';
import { isoSql } from '../../../db/iso-sql';
import { WakeableSleep } from '../../../wakeable-sleep';

/** How one delivery attempt ended. */
export type Outcome =
  | { kind: 'sent'; id: string; campaignId: string | null; at: Date }
  | { kind: 'retry'; id: string; leaseId: string; delayMs: number; error: string }
  | { kind: 'failed'; id: string; campaignId: string | null; leaseId: string; error: string }
  | { kind: 'suppressed'; id: string; campaignId: string | null; leaseId: string; reason: SuppressionReason }
  /** The gate did not let its SMTP transaction begin: its project is suspended, or it is no longer this worker's. */
  | { kind: 'released'; id: string; leaseId: string };

// Every mark takes the email out of the queue, or puts it back with its next due time, and writes the email's
// row once: its outcome (and its attempts). Queue rows are locked before the emails, as the withdrawal does.

// SENT applies whoever holds the lease now: the server accepted the message, whatever else is under way. The
// `email.sent` service event (docs/activity.md) is recorded by the same statement, so a mark is one short write.
// The dequeued attempts are looked up in one object by email id: joined to the emails as a CTE, they were
// compared with every email of the mark whenever the statistics said few emails were PENDING (a nested loop
// over 200 x 200 rows, about a third of the statement's time). No email is updated before that object is
// whole, so the queue rows are still locked first. The object is materialized: inlined, PostgreSQL built it
// again for every email of the mark whenever the queue's statistics said it was empty (an ANALYZE or VACUUM
// between two batches): 0.32 ms of the worker's PostgreSQL CPU per email in a 1,000,000-recipient send, 0.20
// built once.
export const MARK_SENT = `
with s as (select * from jsonb_to_recordset(?::jsonb) as s("id" uuid, "at" timestamptz)),
dequeued as (delete from email_queue q using s where q."email_id" = s."id" returning q."email_id", q."attempts"),
dequeued_attempts as materialized (select jsonb_object_agg("email_id", "attempts") as "by_email" from dequeued),
sent as (
  update emails e set "status" = 'SENT', "sent_at" = s."at", "error" = null,
    "attempts" = coalesce((d."by_email"->>e."id"::text)::int, e."attempts"), "updated_at" = now()
  from s cross join dequeued_attempts d
  where e."id" = s."id" and e."status" = 'PENDING'
  returning ${emailEventColumns('e')})
${INSERT_EVENTS}
select gen_random_uuid(), now(), "project_id", "contact_id", 'email.sent', ${emailEventDataSql}
from sent where "contact_id" is not null`;

// Only the current lease holder may reschedule or fail an email: a worker whose lease ran out may not undo
// the outcome of the worker that took the email over. Each deferral is an `email.deferred` service event
// (docs/activity.md) with the server's reason, the attempt it ended and when the next one is due.
const MARK_RETRY = `
with r as (select * from jsonb_to_recordset(?::jsonb) as r("id" uuid, "lease_id" uuid, "delay_ms" double precision, "error" text)),
requeued as (
  update email_queue q set "due_at" = clock_timestamp() + r."delay_ms" * interval '1 millisecond', "lease_id" = null, "handed_over_at" = null
  from r where q."email_id" = r."id" and q."lease_id" = r."lease_id"
  returning q."email_id", q."attempts", q."due_at", r."error"),
deferred as (
  update emails e set "error" = q."error", "attempts" = q."attempts", "updated_at" = now()
  from requeued q where e."id" = q."email_id"
  returning ${emailEventColumns('e')}, q."attempts" as "attempt", q."due_at" as "retry_at", q."error" as "reason")
${INSERT_EVENTS}
select gen_random_uuid(), now(), "project_id", "contact_id", 'email.deferred', ${emailEventDataSql} || jsonb_build_object(
  'reason', "reason", 'attempt', "attempt", 'retryAt', ${isoSql('"retry_at"')})
from deferred where "contact_id" is not null`;

// A released email is due again at once, without the attempt it did not make; the next claim holds it while
// its project is suspended (claim.ts). One withdrawn, or taken over by another worker, matches nothing.
const RELEASE = `
update email_queue q set "due_at" = clock_timestamp(), "lease_id" = null, "attempts" = greatest(q."attempts" - 1, 0)
from jsonb_to_recordset(?::jsonb) as r("id" uuid, "lease_id" uuid)
where q."email_id" = r."id" and q."lease_id" = r."lease_id" and q."handed_over_at" is null`;

const MARK_FAILED = `
with f as (select * from jsonb_to_recordset(?::jsonb) as f("id" uuid, "lease_id" uuid, "error" text)),
dequeued as (
  delete from email_queue q using f where q."email_id" = f."id" and q."lease_id" = f."lease_id"
  returning q."email_id", q."attempts", f."error")
update emails e set "status" = 'FAILED', "failed_at" = clock_timestamp(), "error" = d."error", "attempts" = d."attempts", "updated_at" = now()
from dequeued d where e."id" = d."email_id" and e."status" = 'PENDING'`;

// The suppression list holds the email back (docs/suppressions.md): SUPPRESSED, never sent, with its
// `email.suppressed` event carrying the entry's reason.
const MARK_SUPPRESSED = `
with f as (select * from jsonb_to_recordset(?::jsonb) as f("id" uuid, "lease_id" uuid, "reason" text)),
dequeued as (
  delete from email_queue q using f where q."email_id" = f."id" and q."lease_id" = f."lease_id"
  returning q."email_id", f."reason"),
suppressed as (
  update emails e set "status" = 'SUPPRESSED', "updated_at" = now()
  from dequeued d where e."id" = d."email_id" and e."status" = 'PENDING'
  returning ${emailEventColumns('e')}, d."reason")
${INSERT_EVENTS}
select gen_random_uuid(), now(), "project_id", "contact_id", 'email.suppressed', ${emailEventDataSql} || jsonb_build_object('reason', "reason")
from suppressed where "contact_id" is not null`;

// Retries, failures, suppressions and releases are of emails a withdrawal may be deleting: their queue rows are locked first, in id
// order as the withdrawal locks them (../withdraw.ts), so that the two never deadlock. (SENT marks are of
// emails handed over, which a withdrawal leaves alone.)
const LOCK_IN_ORDER = `select 1 from email_queue where "email_id" = any(?::uuid[]) order by "email_id" for no key update`;

const RETRY_WRITE_MS = 1_000;
const WRITERS = 1;

/**
 * A campaign's SENT marks wait up to GATHER_MS for company, up to GATHER_OUTCOMES of them: a mark statement
 * costs about as much for 20 emails as for 200 (planning, the rollup and event triggers run once per
 * statement), and nobody waits on a campaign email's mark but its statistics. Any other outcome ends the wait:
 * a transactional email's SENT and every retry or failure are written at once.
 */
export const GATHER_MS = 200;
export const GATHER_OUTCOMES = 250;

const mayWait = (o: Outcome) => o.kind === 'sent' && o.campaignId !== null;

/**
 * Writes delivery outcomes with group commit: an outcome is written by the next transaction to start, which
 * takes everything that arrived until then, with up to WRITERS transactions under way, so an outcome does not
 * wait for a whole write before its own begins. Marks stay a few milliseconds behind SMTP's acceptance under
 * any load (a campaign's SENT marks up to GATHER_MS), at one transaction per batch instead of one per email;
 * a worker killed in between leaves its hand-over marks (hand-over.ts), so these messages are not sent again.
 * If the database cannot be reached, outcomes are kept and written when it can, until the worker stops (close).
 */
export class OutcomeWriter {
  private queue: Outcome[] = [];
  private readonly writers = new Set<Promise<void>>();
  private closing = false;
  /** The wait for company (gather). */
  private readonly gathering = new WakeableSleep();

  constructor(
    /** Writes a batch in one transaction (writeOutcomes). */
    private readonly writeBatch: (batch: Outcome[]) => Promise<void>,
    private readonly logger: Logger,
    /** Called after a write that rescheduled emails, so that the pump looks at the new due times. */
    private readonly onRescheduled: () => void,
  ) {}

  add(outcome: Outcome): void {
    this.queue.push(outcome);
    if (!mayWait(outcome) || this.queue.length >= GATHER_OUTCOMES) this.gathering.wake();
    this.kick();
  }

  private kick(): void {
    if (this.writers.size >= WRITERS) return;
    const writer: Promise<void> = this.writeAll().finally(() => {
      this.writers.delete(writer);
      // Outcomes added between the last write and this point.
      if (this.queue.length > 0) this.kick();
    });
    this.writers.add(writer);
  }

  /**
   * Resolves once every outcome added so far is written, or tried once more since this call: the worker is
   * stopping, and a database that still refuses them (gone, or closed under the pump) is not waited for. Their
   * emails are not lost: the leases run out and the next claim takes them again, marking SENT those handed
   * over (hand-over.ts).
   */
  async close(): Promise<void> {
    this.closing = true;
    this.gathering.wake();
    while (this.writers.size > 0) await Promise.all(this.writers);
  }

  /** Waits for more outcomes while every outcome queued is a campaign's SENT mark (GATHER_MS). */
  private async gather(): Promise<void> {
    if (this.closing || this.queue.length >= GATHER_OUTCOMES || !this.queue.every(mayWait)) return;
    await this.gathering.sleep(GATHER_MS);
  }

  private async writeAll(): Promise<void> {
    while (this.queue.length > 0) {
      await this.gather();
      const batch = this.queue;
      this.queue = [];
      try {
        await this.writeBatch(batch);
        if (batch.some((o) => o.kind === 'retry' || o.kind === 'released')) this.onRescheduled();
      } catch (err) {
        if (this.closing) {
          const emails = batch.map((o) => o.id);
          this.logger.error(
            { err, emails },
            'could not record delivery outcomes before stopping; the emails are due again when their leases run out',
          );
          continue;
        }
        this.logger.error({ err, outcomes: batch.length }, 'could not record delivery outcomes; retrying');
        this.queue = [...batch, ...this.queue];
        await new Promise((r) => setTimeout(r, RETRY_WRITE_MS));
      }
    }
  }
}

/**
 * Marks PENDING emails SENT at the given times, with their `email.sent` events; notifies the outbox, and the
 * sends of campaigns that have nothing left in the queue, at commit.
 */
export async function markSent(tx: EntityManager, sent: Array<{ id: string; campaignId: string | null; at: string }>): Promise<void> {
  await tx.execute(MARK_SENT, [JSON.stringify(sent.map(({ id, at }) => ({ id, at })))]);
  eventsRecorded(tx);
  await notifyDrained(
    tx,
    sent.map((s) => s.campaignId),
  );
}

/** Records a batch of outcomes in the caller's transaction, one statement per kind. */
export async function writeOutcomes(tx: EntityManager, batch: Outcome[]): Promise<void> {
  const sent = batch.flatMap((o) => (o.kind === 'sent' ? [{ id: o.id, campaignId: o.campaignId, at: o.at.toISOString() }] : []));
  const retries = batch.flatMap((o) =>
    o.kind === 'retry' ? [{ id: o.id, lease_id: o.leaseId, delay_ms: o.delayMs, error: o.error }] : [],
  );
  const failed = batch.flatMap((o) => (o.kind === 'failed' ? [o] : []));
  const failures = failed.map((o) => ({ id: o.id, lease_id: o.leaseId, error: o.error }));
  const held = batch.flatMap((o) => (o.kind === 'suppressed' ? [o] : []));
  const suppressions = held.map((o) => ({ id: o.id, lease_id: o.leaseId, reason: o.reason }));
  const released = batch.flatMap((o) => (o.kind === 'released' ? [{ id: o.id, lease_id: o.leaseId }] : []));
  if (sent.length) await markSent(tx, sent);
  const locked = [...retries, ...failures, ...suppressions, ...released];
  if (locked.length > 1) await tx.execute(LOCK_IN_ORDER, [`{${locked.map((o) => o.id).join(',')}}`]);
  if (released.length) await tx.execute(RELEASE, [JSON.stringify(released)]);
  if (retries.length) {
    await tx.execute(MARK_RETRY, [JSON.stringify(retries)]);
    eventsRecorded(tx);
  }
  if (failures.length) await tx.execute(MARK_FAILED, [JSON.stringify(failures)]);
  if (suppressions.length) {
    await tx.execute(MARK_SUPPRESSED, [JSON.stringify(suppressions)]);
    eventsRecorded(tx);
  }
  if (failed.length + held.length) {
    await notifyDrained(
      tx,
      [...failed, ...held].map((o) => o.campaignId),
    );
  }
}
