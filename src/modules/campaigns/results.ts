import type { EntityManager } from '@mikro-orm/postgresql';
import type { Campaign } from './entities';
import type { CampaignLinks, RecipientsPage, RecipientsQuery } from './schemas';

/**
 * What a sent campaign did, recipient by recipient and link by link (docs/campaigns.md "Results"): read from its
 * emails and their `email.click` events, so a resend or a later open shows at once.
 */

interface RecipientRow {
  id: string;
  contact_id: string | null;
  to_address: string;
  status: RecipientsPage['data'][number]['status'];
  sent_at: Date | null;
  delivered_at: Date | null;
  opened_at: Date | null;
  clicked_at: Date | null;
  bounced_at: Date | null;
  complained_at: Date | null;
  failed_at: Date | null;
  error: string | null;
  total: string;
}

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The campaign's emails, one per recipient, by address, a page at a time; `status` keeps one status. */
export async function campaignRecipients(em: EntityManager, campaign: Campaign, q: RecipientsQuery): Promise<RecipientsPage> {
  const params: unknown[] = [campaign.projectId, campaign.id];
  const status = q.status ? 'and "status" = ?' : '';
  if (q.status) params.push(q.status);
  const rows = await em.execute<RecipientRow[]>(
    `select "id", "contact_id", "to_address", "status", "sent_at", "delivered_at", "opened_at", "clicked_at", "bounced_at",
       "complained_at", "failed_at", "error", count(*) over () as "total"
     from emails where "project_id" = ? and "campaign_id" = ? ${status}
     order by "to_address", "id" limit ? offset ?`,
    [...params, q.pageSize, (q.page - 1) * q.pageSize],
  );
  const total =
    rows.length > 0
      ? Number(rows[0]!.total)
      : Number(
          (
            await em.execute<Array<{ n: string }>>(
              `select count(*) as "n" from emails where "project_id" = ? and "campaign_id" = ? ${status}`,
              params,
            )
          )[0]!.n,
        );
  return {
    data: rows.map((r) => ({
      emailId: r.id,
      contactId: r.contact_id,
      to: r.to_address,
      status: r.status,
      sentAt: iso(r.sent_at),
      deliveredAt: iso(r.delivered_at),
      openedAt: iso(r.opened_at),
      clickedAt: iso(r.clicked_at),
      bouncedAt: iso(r.bounced_at),
      complainedAt: iso(r.complained_at),
      failedAt: iso(r.failed_at),
      error: r.error,
    })),
    page: q.page,
    pageSize: q.pageSize,
    total,
    totalPages: Math.ceil(total / q.pageSize),
  };
}

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
