import type { EntityManager } from '@mikro-orm/postgresql';
import type { Campaign } from './entities';
import type { CampaignLinks } from './schemas';

/**
 * What a sent campaign's links did (docs/campaigns.md "Clicked links"): read from its `email.click` events, so a later
 * click shows at once. Recipient by recipient is recipients.ts.
 */

/** The links its recipients followed, most clicked first: every click, and how many recipients clicked. */
export async function campaignLinks(em: EntityManager, campaign: Campaign): Promise<CampaignLinks> {
  const rows = await em.execute<Array<{ url: string; clicks: string; recipients: string }>>(
    `select e."data"->>'link' as "url", count(*) as "clicks", count(distinct e."contact_id") as "recipients"
     from events e
     where e."project_id" = ? and e."name" = 'email.click' and e."data"->>'campaignId' = ? and e."data"->>'link' is not null
     group by 1 order by 2 desc, 1 limit 100`,
    [campaign.projectId, campaign.id],
  );
  return { links: rows.map((r) => ({ url: r.url, clicks: Number(r.clicks), recipients: Number(r.recipients) })) };
}
