import type { EntityManager } from '@mikro-orm/postgresql';
import { emailStatusCounts } from '../emails/status';
import { liveAudienceCount } from './audience';
import type { Campaign } from './entities';
import type { StatsResponse } from './schemas';

/**
 * A campaign's figures, derived on read: nothing is incremented, so retried or repeated steps cannot skew
 * them. Until it sends, the audience is counted live and nothing has been sent; from then on the recipients
 * are those fixed when sending started, and each count is the campaign's emails that ever reached that
 * stage (an email opened and then reported as spam counts as delivered, opened and complained).
 */
export interface CampaignCounts {
  totalRecipients: number;
  sentCount: number;
  deliveredCount: number;
  openedCount: number;
  clickedCount: number;
  bouncedCount: number;
  complainedCount: number;
}

const hasSent = (c: Campaign) => c.status === 'SENDING' || c.status === 'SENT' || c.status === 'CANCELLED';

export async function campaignCounts(em: EntityManager, campaign: Campaign): Promise<CampaignCounts> {
  if (!hasSent(campaign)) {
    const totalRecipients = await liveAudienceCount(em, campaign);
    return { totalRecipients, sentCount: 0, deliveredCount: 0, openedCount: 0, clickedCount: 0, bouncedCount: 0, complainedCount: 0 };
  }
  const { reached } = await emailStatusCounts(em, campaign.projectId, { campaignId: campaign.id });
  return {
    totalRecipients: campaign.totalRecipients,
    sentCount: reached.SENT,
    deliveredCount: reached.DELIVERED,
    openedCount: reached.OPENED,
    clickedCount: reached.CLICKED,
    bouncedCount: reached.BOUNCED,
    complainedCount: reached.COMPLAINED,
  };
}

/** Recipients who unsubscribed after this campaign's email reached them (any way they did it). */
async function unsubscribedAfter(em: EntityManager, campaign: Campaign): Promise<number> {
  if (!hasSent(campaign)) return 0;
  const [row] = await em.execute<Array<{ count: number }>>(
    `select count(distinct ev.contact_id)::int as count
     from events ev join emails e on e.campaign_id = ? and e.contact_id = ev.contact_id
     where ev.project_id = ? and ev.name = 'contact.unsubscribed' and ev.created_at >= e.sent_at`,
    [campaign.id, campaign.projectId],
  );
  return row?.count ?? 0;
}

/** Recipients the project's frequency cap held back: skipped without an email. */
async function cappedRecipients(em: EntityManager, campaign: Campaign): Promise<number> {
  if (!hasSent(campaign)) return 0;
  const [row] = await em.execute<Array<{ count: number }>>(
    `select count(*)::int as count from campaign_recipients r
     where r.campaign_id = ? and r.skip_reason = 'FREQUENCY_CAPPED'
       and not exists (select 1 from emails e where e.id = r.email_id)`,
    [campaign.id],
  );
  return row?.count ?? 0;
}

/** Percent of `sent`, two decimals; 0 when nothing was sent. */
export const rate = (part: number, sent: number) => (sent === 0 ? 0 : Math.round((part / sent) * 10_000) / 100);

/** GET /campaigns/{id}/stats (docs/campaigns.md "Figures"). */
export async function campaignStats(em: EntityManager, campaign: Campaign): Promise<StatsResponse> {
  const counts = await campaignCounts(em, campaign);
  const sent = counts.sentCount;
  return {
    ...counts,
    unsubscribedCount: await unsubscribedAfter(em, campaign),
    cappedCount: await cappedRecipients(em, campaign),
    openRate: rate(counts.openedCount, sent),
    clickRate: rate(counts.clickedCount, sent),
    bounceRate: rate(counts.bouncedCount, sent),
    deliveryRate: rate(counts.deliveredCount, sent),
  };
}
