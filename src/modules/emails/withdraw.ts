import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Taking back the emails of a cancelled campaign or automation execution (docs/delivery.md, "Withdrawal").
 * An email is withdrawn by deleting its row, whoever holds it: the pump begins an SMTP transaction and writes
 * a terminating dot only under a lock on the row that a delete conflicts with (delivery/gate.ts,
 * delivery/hand-over.ts), so once the withdrawal commits no transaction of these emails begins and none under
 * way is finished. What was handed over before it (the dot written) has left, and stays.
 */

export type Producer = { campaignId: string } | { executionIds: string[] };

/**
 * The statement that deletes queued emails, queue row and email, given the select of their ids (`email_id`):
 * what taking an email back means, for a cancel and for the pump's claim alike.
 */
export const deleteQueued = (doomed: string) => `
with doomed as materialized (${doomed}),
dequeued as (delete from email_queue q using doomed where q."email_id" = doomed."email_id")
delete from emails e using doomed where e."id" = doomed."email_id"`;

/**
 * Deletes the producer's PENDING emails that were not handed over, waiting for the claims and rounds that hold
 * their rows; returns how many. Run in the cancelling transaction.
 */
export async function withdrawEmails(tx: EntityManager, producer: Producer): Promise<number> {
  const [of, key] =
    'campaignId' in producer
      ? [`"campaign_id" = ?`, producer.campaignId]
      : [`"workflow_execution_id" = any(?::uuid[])`, `{${producer.executionIds.join(',')}}`];
  // Queue rows locked in id order, as the pump's rounds lock theirs (delivery/guarded-rounds.ts), and before
  // the emails, as the outcome marks lock them (delivery/outcomes.ts): no deadlock.
  const result = await tx.execute<{ affectedRows: number }>(
    deleteQueued(`select "email_id" from email_queue where ${of} and "handed_over_at" is null order by "email_id" for update`),
    [key],
    'run',
  );
  return result.affectedRows;
}

/**
 * The campaign (alias `c`) and automation execution (alias `x`) that produced a queued email (its email_queue
 * row, alias `q`), as left joins, for withdrawnSql.
 */
export const producersOf = (q: string, c: string, x: string) => `
left join campaigns ${c} on ${c}."id" = ${q}."campaign_id"
left join automation_executions ${x} on ${x}."id" = ${q}."workflow_execution_id"`;

/**
 * True for a queued email whose campaign or execution (joined by producersOf) was cancelled and that was not
 * handed over: one that came back to the queue after its withdrawal (a retry after the server refused its
 * end), or that an automation step enqueued as its execution was being cancelled. The pump withdraws these
 * when it finds them.
 */
export const withdrawnSql = (q: string, c: string, x: string) =>
  `(${q}."handed_over_at" is null and (${c}."status" = 'CANCELLED' or ${x}."status" = 'CANCELLED')) is true`;
