import type { EntityManager } from '@mikro-orm/postgresql';
import { withdrawEmails } from './withdraw';

/** The delivery queue as a campaign sees it: how much of it is still waiting, and what a cancel leaves. */

/** Notified, with the campaign's id, when an outcome took the last of a campaign's emails out of the queue. */
export const CAMPAIGN_DRAINED_CHANNEL = 'campaign_drained';

/**
 * The emails of the campaign with id `campaign` (SQL) still in the queue: not yet accepted by SMTP, nor failed,
 * suppressed or withdrawn. Read from the email rollup (migration 0024), which the emails' triggers keep exact in
 * every transaction: a campaign email counts as billable from its creation until it fails, is suppressed or
 * withdrawn, and as sent once SMTP accepted it, and it never fails after that. A few rollup rows per hour of the
 * send, where counting the queue's rows walked every entry their deletes had left in its campaign index since
 * the last vacuum (3 ms a count at 100,000 recipients, docs/contributors/campaigns.md "The pending count from
 * the rollup").
 */
const unsent = (campaign: string) =>
  `(select coalesce(sum(s."billable" - s."sent"), 0)::int from email_stats s where s."campaign_id" = ${campaign})`;

/**
 * Notifies (at commit) the campaigns among `campaignIds` that have nothing left in the queue: run after the
 * outcomes that dequeued their emails, in the same transaction, whose own rollup changes it sees.
 */
export async function notifyDrained(tx: EntityManager, campaignIds: Iterable<string | null>): Promise<void> {
  const ids = [...new Set([...campaignIds].filter((id): id is string => id !== null))];
  if (ids.length === 0) return;
  await tx.execute(
    `select pg_notify('${CAMPAIGN_DRAINED_CHANNEL}', c."id"::text) from unnest(?::uuid[]) as c("id") where ${unsent('c."id"')} = 0`,
    [`{${ids.join(',')}}`],
  );
}

/** Emails of the campaign not yet handed to SMTP (nor failed). */
export async function pendingCampaignEmails(em: EntityManager, campaignId: string): Promise<number> {
  const [row] = await em.execute<Array<{ count: number }>>(`select ${unsent('?')} as "count"`, [campaignId]);
  return row?.count ?? 0;
}

/**
 * Withdraws the campaign's emails that have not left (withdraw.ts), claimed or not. Returns how many remain
 * that have left or are leaving (handed over, any status but FAILED). Run in the cancelling transaction.
 */
export async function withdrawCampaignEmails(tx: EntityManager, campaignId: string): Promise<{ withdrawn: number; remaining: number }> {
  const withdrawn = await withdrawEmails(tx, { campaignId });
  const [row] = await tx.execute<Array<{ count: number }>>(
    `select count(*)::int as count from emails where "campaign_id" = ? and "status" <> 'FAILED'`,
    [campaignId],
  );
  return { withdrawn, remaining: row?.count ?? 0 };
}

/** Forgets every email of a campaign; for a cancelled send of which nothing left, so that it can be sent again. */
export async function forgetCampaignEmails(tx: EntityManager, campaignId: string): Promise<void> {
  await tx.execute(`delete from emails where "campaign_id" = ?`, [campaignId]);
}
