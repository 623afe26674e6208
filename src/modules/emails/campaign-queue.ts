import type { EntityManager } from '@mikro-orm/postgresql';
import { withdrawEmails } from './withdraw';

/** The delivery queue as a campaign sees it: how much of it is still waiting, and what a cancel leaves. */

/** Notified, with the campaign's id, when an outcome took the last of a campaign's emails out of the queue. */
export const CAMPAIGN_DRAINED_CHANNEL = 'campaign_drained';

/**
 * Notifies (at commit) the campaigns among `campaignIds` that have nothing left in the queue: run after the
 * outcomes that dequeued their emails, in the same transaction. One index probe per campaign.
 */
export async function notifyDrained(tx: EntityManager, campaignIds: Iterable<string | null>): Promise<void> {
  const ids = [...new Set([...campaignIds].filter((id): id is string => id !== null))];
  if (ids.length === 0) return;
  await tx.execute(
    `select pg_notify('${CAMPAIGN_DRAINED_CHANNEL}', c."id"::text) from unnest(?::uuid[]) as c("id")
     where not exists (select 1 from email_queue q where q."campaign_id" = c."id")`,
    [`{${ids.join(',')}}`],
  );
}

/** Emails of the campaign not yet handed to SMTP (nor failed). */
export async function pendingCampaignEmails(em: EntityManager, campaignId: string): Promise<number> {
  const [row] = await em.execute<Array<{ count: number }>>(`select count(*)::int as count from email_queue where "campaign_id" = ?`, [
    campaignId,
  ]);
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
