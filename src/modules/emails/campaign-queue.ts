import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * The delivery queue as a campaign sees it: how much of it is still waiting, and taking back what has not
 * left when the campaign is cancelled. An email under a live lease may be on its way to the SMTP server at
 * this very moment, so it is never taken back; a lease that ran out belongs to a worker that died, and its
 * email waits for a retry like any other, unless that worker had handed it over (the server has it).
 */

/** Emails of the campaign not yet handed to SMTP (nor failed). */
export async function pendingCampaignEmails(em: EntityManager, campaignId: string): Promise<number> {
  const [row] = await em.execute<Array<{ count: number }>>(
    `select count(*)::int as count from emails where "campaign_id" = ? and "status" = 'PENDING'`,
    [campaignId],
  );
  return row?.count ?? 0;
}

/**
 * Deletes the campaign's PENDING emails that no worker holds; rows a claim has locked are waited for and
 * then skipped, since the claim leased them. Returns how many remain that have left or may be leaving (any
 * status but FAILED). Run in the cancelling transaction.
 */
export async function withdrawCampaignEmails(tx: EntityManager, campaignId: string): Promise<{ withdrawn: number; remaining: number }> {
  const withdrawn = await tx.execute<{ affectedRows: number }>(
    `delete from emails where "campaign_id" = ? and "status" = 'PENDING' and "handed_over_at" is null
       and ("lease_id" is null or "next_attempt_at" <= clock_timestamp())`,
    [campaignId],
    'run',
  );
  const [row] = await tx.execute<Array<{ count: number }>>(
    `select count(*)::int as count from emails where "campaign_id" = ? and "status" <> 'FAILED'`,
    [campaignId],
  );
  return { withdrawn: withdrawn.affectedRows, remaining: row?.count ?? 0 };
}

/** Forgets every email of a campaign; for a cancelled send of which nothing left, so that it can be sent again. */
export async function forgetCampaignEmails(tx: EntityManager, campaignId: string): Promise<void> {
  await tx.execute(`delete from emails where "campaign_id" = ?`, [campaignId]);
}
