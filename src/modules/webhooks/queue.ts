import type { EntityManager } from '@mikro-orm/postgresql';
import type { AttemptOutcome } from './attempt';

export interface QueuedDelivery {
  id: string;
  /** `webhook-id`: the event's id, the same on every attempt and replay; a test message's own id. */
  webhookId: string;
  body: string;
  /** Failed attempts since the endpoint was last enabled (the backoff's step), not every attempt. */
  backoffAttempts: number;
}

const HEAD = `
select "id", coalesce("event_id", "id") as "webhook_id", "body", "backoff_attempts" from webhook_deliveries
where "endpoint_id" = ? and "status" = 'PENDING' order by "seq" limit ?`;

/** The first `limit` pending deliveries of the endpoint, in queue order. */
export async function queueHead(em: EntityManager, endpointId: string, limit: number): Promise<QueuedDelivery[]> {
  const rows = await em.execute<{ id: string; webhook_id: string; body: string; backoff_attempts: number }[]>(HEAD, [endpointId, limit]);
  return rows.map((r) => ({ id: r.id, webhookId: r.webhook_id, body: r.body, backoffAttempts: r.backoff_attempts }));
}

const SUCCEEDED = `
update webhook_deliveries d set "status" = 'SUCCEEDED', "attempts" = d."attempts" + 1, "last_status_code" = r.code,
  "last_error" = null, "last_attempt_at" = r.at, "next_attempt_at" = null
from jsonb_to_recordset(?::jsonb) as r(id uuid, code integer, at timestamptz) where d."id" = r.id and d."status" = 'PENDING'`;

/** Records the successful attempts of several deliveries in one statement. */
export async function markSucceeded(em: EntityManager, done: { id: string; outcome: AttemptOutcome }[]): Promise<void> {
  if (done.length === 0) return;
  const rows = done.map(({ id, outcome }) => ({ id, code: outcome.statusCode, at: outcome.at.toISOString() }));
  await em.execute(SUCCEEDED, [JSON.stringify(rows)]);
}

const FAILED_ATTEMPT = `
update webhook_deliveries set "attempts" = "attempts" + 1, "backoff_attempts" = "backoff_attempts" + 1, "last_status_code" = ?, "last_error" = ?, "last_attempt_at" = ?,
  "next_attempt_at" = ? where "id" = ? and "status" = 'PENDING'`;

/** Records a failed attempt of a queued delivery, which stays PENDING for its retry. */
export async function markAttemptFailed(em: EntityManager, id: string, outcome: AttemptOutcome, nextAttemptAt: Date | null): Promise<void> {
  await em.execute(FAILED_ATTEMPT, [outcome.statusCode, outcome.error, outcome.at, nextAttemptAt, id]);
}

const RESTART_BACKOFF = `
update webhook_deliveries set "backoff_attempts" = 0, "next_attempt_at" = null
where "endpoint_id" = ? and "status" = 'PENDING' and "backoff_attempts" > 0`;

/** The endpoint is enabled again: its loop tries the queue at once, and a failure waits the backoff's first step. */
export async function restartBackoff(em: EntityManager, endpointId: string): Promise<void> {
  await em.execute(RESTART_BACKOFF, [endpointId]);
}

const BACKLOG = `select count(*)::int as n from webhook_deliveries where "endpoint_id" = ? and "status" = 'PENDING'`;

export async function backlogOf(em: EntityManager, endpointId: string): Promise<number> {
  const [row] = await em.execute<{ n: number }[]>(BACKLOG, [endpointId]);
  return row?.n ?? 0;
}
