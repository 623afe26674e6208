import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../http/errors';
import type { TemporalGateway } from '../../temporal/client';
import { callTemporal } from '../../temporal/unavailable';
import { ensureScheduledRelease } from '../../temporal/scheduled-emails';
import type { CopyRecipient, EmailStatus } from '../emails/entities';
import { cancelScheduled, lockScheduled, setScheduledAt } from '../emails/schedule';
import type { EmailView } from './schemas';
import { scheduledTime } from './service';
import { isoSql } from '../../db/iso-sql';

interface Row {
  id: string;
  status: EmailStatus;
  to_address: string;
  cc: CopyRecipient[];
  bcc: CopyRecipient[];
  from_address: string;
  subject: string;
  tags: Record<string, string>;
  scheduled_at: string | null;
  sent_at: string | null;
  created_at: string;
  contact_id: string | null;
  contact_email: string | null;
  campaign_id: string | null;
  workflow_execution_id: string | null;
  next_attempt_at: string | null;
}

/**
 * A PENDING email that an attempt was made for and that waits for its next one (a deferral: docs/delivery.md
 * "Failures") is due at its queue row's time, written as the deferral's `retryAt` is. Null otherwise: never tried
 * (a throttled email's due time is its slot, not a retry), being tried now (a lease), or out of the queue.
 */
const NEXT_ATTEMPT_AT = `case when e."status" = 'PENDING' and q."attempts" > 0 and q."lease_id" is null
  then ${isoSql('q."due_at"')} end`;

const iso = (pg: string | null) => (pg === null ? null : new Date(pg).toISOString());

/** GET /v1/emails/{id}: an email of the project; another project's is as unknown as a missing one. */
export async function emailView(em: EntityManager, projectId: string, id: string): Promise<EmailView> {
  const [row] = await em.execute<Row[]>(
    `select e."id", e."status", e."to_address", e."cc", e."bcc", e."from_address", e."subject", e."tags", e."scheduled_at", e."sent_at",
       e."created_at", e."contact_id", c."email" as "contact_email", e."campaign_id", e."workflow_execution_id",
       ${NEXT_ATTEMPT_AT} as "next_attempt_at"
     from emails e left join contacts c on c."id" = e."contact_id" left join email_queue q on q."email_id" = e."id"
     where e."id" = ? and e."project_id" = ?`,
    [id, projectId],
  );
  if (!row) throw notFound('Email');
  return {
    id: row.id,
    status: row.status,
    to: row.to_address,
    cc: row.cc.map((r) => r.email),
    bcc: row.bcc.map((r) => r.email),
    from: row.from_address,
    subject: row.subject,
    tags: row.tags,
    scheduledAt: iso(row.scheduled_at),
    sentAt: iso(row.sent_at),
    createdAt: iso(row.created_at)!,
    contact: row.contact_id && row.contact_email ? { id: row.contact_id, email: row.contact_email } : null,
    campaignId: row.campaign_id,
    executionId: row.workflow_execution_id,
    nextAttemptAt: row.next_attempt_at,
  };
}

/**
 * PATCH /v1/emails/{id}: a new due time for a SCHEDULED email (409 otherwise). The timer of the new time's
 * second is made sure of before the change commits (503 with nothing changed when Temporal is unreachable);
 * the old time's timer then finds the email due later and leaves it. Now (past or within 5 s): the email goes
 * to the delivery queue in this transaction.
 */
export async function rescheduleEmail(
  em: EntityManager,
  temporal: TemporalGateway,
  projectId: string,
  id: string,
  sendAt: Date,
): Promise<EmailView> {
  const at = scheduledTime(sendAt);
  await em.transactional(async (tx) => {
    await lockScheduled(tx, projectId, id);
    await setScheduledAt(tx, id, at);
    if (at) await callTemporal('the email was not rescheduled', () => ensureScheduledRelease(temporal, projectId, at));
  });
  return emailView(em, projectId, id);
}

/** POST /v1/emails/{id}/cancel: a SCHEDULED email (409 otherwise) becomes CANCELLED; its timer then finds nothing of it. */
export async function cancelEmail(em: EntityManager, projectId: string, id: string): Promise<EmailView> {
  await em.transactional(async (tx) => {
    await lockScheduled(tx, projectId, id);
    await cancelScheduled(tx, id);
  });
  return emailView(em, projectId, id);
}
